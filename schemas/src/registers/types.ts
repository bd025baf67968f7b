import type { RouteAccess } from '../access';

/**
 * A register is data: one folder under schemas/registers/<name>/ with three JSON files
 * (docs/registers.md):
 * - schema.json — the JSON Schema of a record (fields, types, formats, required, patterns,
 *   max lengths) with the seed's pt-BR messages under `errorMessage`;
 * - ui.json — the rjsf UI schema (widgets by registered name, order, help texts);
 * - list.json — list and menu metadata, typed by {@link RegisterListMeta}.
 */

/** A JSON Schema as stored in schema.json (draft-07 subset plus our `errorMessage`). */
export interface RegisterSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, RegisterSchema>;
  items?: RegisterSchema;
  required?: string[];
  enum?: unknown[];
  oneOf?: RegisterSchema[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  /**
   * pt-BR message(s) for this value: one text for every keyword, or one per keyword
   * (`required`, `minLength`, `pattern`, `format`, `type`...; `default` for the rest).
   */
  errorMessage?: string | Record<string, string>;
  readOnly?: boolean;
  [keyword: string]: unknown;
}

/** rjsf UI schema: `ui:widget` names a widget of the engine's registry (WIDGET_NAMES). */
export type RegisterUiSchema = Record<string, unknown>;

export type ColumnType = 'text' | 'boolean' | 'number' | 'date' | 'datetime' | 'color' | 'chips' | 'image' | 'money' | 'phone';

/** One column of the generic table. */
export interface RegisterColumn {
  field: string;
  /** Header; defaults to the schema property's title. */
  label?: string;
  type?: ColumnType;
  sortable?: boolean;
  /** For chips of ids: the register whose titles to show. */
  reference?: string;
}

/** Toolbar buttons of the generic table (seed 000 §2 "Generic register screen"). */
export type ToolbarAction = 'create' | 'csv' | 'print' | 'import' | 'upload' | 'subCollectionExport' | 'bulkDelete' | 'xlsx';

/** Row buttons of the generic table. */
export type RowAction = 'show' | 'edit' | 'delete' | 'duplicate' | 'removeClients' | 'sendLogin' | 'rules' | 'lgpd';

/**
 * Non-admins see only some rows: those listing a record linked to them. Negotiations: the
 * participants whose `agentId` is the user; rows whose `participantIds` contains one of them
 * (seed 000 §6), unless the user holds `bypassClaim`.
 */
export interface LinkedScope {
  /** Register holding the links (participants). */
  via: string;
  /** Field of `via` naming the user (agentId). */
  viaField: string;
  /** Array field of this register holding ids of `via` (participantIds). */
  field: string;
  /** User claim that lifts the rule (enableAllNegotiations). */
  bypassClaim?: string;
}

/** list.json: how the register is listed, searched, guarded and shown in the menu. */
export interface RegisterListMeta {
  /** API collection and react-admin resource: /api/{name}. Defaults to the folder name. */
  name: string;
  /** Plural label: menu, page title ('Contatos'). */
  label: string;
  /** Singular label: form titles ('Contato'). */
  itemLabel: string;
  /** Grammatical gender of itemLabel: 'f' titles the create form 'Nova Categoria' instead of 'Novo ...'. */
  gender: 'm' | 'f';
  /** @mui/icons-material icon name ('Contacts'). */
  icon: string;
  /** Browser route; defaults to '/' + name. */
  route: string;
  /** Listed in the drawer (a register reached from another one, like FAQ categories, is not). */
  menu: boolean;
  /**
   * Place in the drawer among every screen (schemas/src/routes.ts numbers the other screens:
   * 'Atendimento' 0, 'Campanhas' 170, 'Dashboard' 200...). Without it: after them.
   */
  menuOrder?: number;
  /** Live collection clients subscribe to; defaults to name. */
  live: string;
  /** Who may open it: the same vocabulary as the app's route table (schemas/src/routes.ts). */
  access: RouteAccess;
  /**
   * Who may write, when it differs from who may open it: e.g. queues are open to
   * every user of a tenant with the queues claim, but only admins or the 'queues' permission
   * change them. Without it: the same as `access`.
   */
  writeAccess?: RouteAccess;
  /** For 'admin-or-permission': the user claim that also opens it (default: name). */
  permission?: string;
  /** Tenant claim that must be on ('clients', 'queues', 'metaChannel'...). */
  claim?: string;
  /** Tenant claims that make the register read-only (externalClients for clients). */
  readOnlyClaims: string[];
  /** Field that titles a record: sorted and searched on an indexed column. */
  titleField: string;
  columns: RegisterColumn[];
  /** Fields the table search box looks in. */
  searchFields: string[];
  /** Fields a caller may filter and sort on (always bound as parameters). */
  filters: string[];
  sort: { field: string; order: 'ASC' | 'DESC' };
  perPage: number;
  pageSizes: number[];
  toolbar: ToolbarAction[];
  rowActions: RowAction[];
  /** Columns of the CSV import template, in order. */
  csvTemplate: string[];
  /** Non-admins see and write only records whose `ownerField` is their user id. */
  ownerField?: string;
  /**
   * Records without an owner are shared (seed 001 §6 fixed messages: "others see their own and
   * global ones"): every user reads them; only admins change them.
   */
  ownerlessShared?: boolean;
  /** Tenant claim that lets every user read every record (still writing only their own). */
  ownerWideClaim?: string;
  /** Fields only admins may change (contacts: Ativo and the block switches). */
  adminFields: string[];
  /** Fields shown and accepted only when a tenant claim is on: { anex: 'faqAnex' }. */
  fieldClaims: Record<string, string>;
  /** Fields the server fills (owner, generated images); the form shows them read-only. */
  serverFields: string[];
  /** Fields never sent back to browsers (passwords). */
  writeOnlyFields: string[];
  scope?: LinkedScope;
  /** Sub-collections that can be exported (agents: 'status'); needs enableAgentStatusExporter. */
  subCollections: string[];
  /** Registers reached from this one's screen as tabs (FAQ → categories, questions). */
  children: string[];
  /** Hand-written view replacing the generated Show (negotiations' photo carousel). */
  showOverride?: string;
}

/** A whole register as loaded from its folder. */
export interface RegisterDefinition {
  name: string;
  schema: RegisterSchema;
  uiSchema: RegisterUiSchema;
  list: RegisterListMeta;
}

/** A record as the API returns it. */
export interface RegisterRecord {
  id: string;
  lifeControl?: { createdAt: string; updatedAt?: string | null; deletedAt: string | null };
  [field: string]: unknown;
}

/** One failing field of a write: dotted path and pt-BR message. */
export interface FieldError {
  field: string;
  message: string;
}
