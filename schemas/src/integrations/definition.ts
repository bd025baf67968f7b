import { format } from '../messages';
import { genderOf, parseDefinition, type RegisterDefinition, type RegisterSchema, type RegisterColumn } from '../registers/index';

/**
 * Integrations (seed 000 §3 "Integration definition", docs/integrations.md): registers an
 * admin defines live, as data in the `integrations` register. Each one becomes a route
 * /{register} with a generic list and form built from its JSON Schema (`vjsfSchemaMaster`);
 * its records live in the generic `integration_records` table under its `collection`.
 *
 * This module is pure: the server (validation, visibility, API) and the engine (menu,
 * screens) share it.
 */

/** The fields of an integration definition that drive the menu, the screens and the records API. */
export interface IntegrationDefinition {
  id: string;
  name: string;
  register: string;
  collection: string;
  order?: number | null;
  active?: boolean | null;
  menu?: boolean | null;
  adminOnly?: boolean | null;
  departments?: string[] | null;
  listTitle?: string | null;
  listItemTitle?: string | null;
  listIcon?: string | null;
  listItemIcon?: string | null;
  noItems?: string | null;
  idField?: string | null;
  orderBy?: string | null;
  vjsfSchemaMaster?: RegisterSchema | null;
  /** Schema of each item of the record's `itens` sub-form (seed 000 §3, 001 "item sub-forms"). */
  vjsfSchemaItens?: RegisterSchema | null;
  /** Schema of the parameters asked before a document is sent (seed 001 "buttons (label, params schema)"). */
  vjsfSchemaParams?: RegisterSchema | null;
  tableHeaders?: { columnsTranslations?: Record<string, string> | null } | null;
  lifeControl?: { deletedAt?: string | null } | null;
  [field: string]: unknown;
}

/** pt-BR texts of the integrations (the seed quotes none for these cases). */
export const INTEGRATION_MESSAGES = {
  schemaInvalid: 'Schema JSON inválido: {detail}',
  schemaNotObject: 'O schema precisa ter "type": "object" e "properties".',
  schemaNoFields: 'O schema precisa de ao menos um campo de texto, número ou sim/não em "properties" (o primeiro dá título aos registros).',
  recordOf: 'registro de {label}',
  registerTaken: 'A rota /{register} já é usada por outra tela.',
  registerInUse: 'Já existe uma integração com a rota /{register}.',
  collectionInUse: 'Já existe uma integração com a coleção {collection}.',
  collectionHasRecords: 'A coleção não pode ser alterada: a integração já tem registros.',
  notFound: 'Integração não encontrada.',
  idFieldMissing: 'Informe o campo {field} (identificador da integração).',
  /** The generic table's own empty text (seed 000 §2) when the integration names none. */
  defaultNoItems: 'Esta lista está vazia',
  itemsTitle: 'Itens',
  paramsTitle: 'Parâmetros',
  findByChatDisabled: 'Esta integração não busca itens pelo chat.',
  chatIdInvalid: 'Identificador de chat inválido.',
  findByChatFieldInvalid: 'Campo da busca pelo chat inválido.',
} as const;

/** Name of a records collection (the `collection` pattern of the integrations' schema.json). */
export const INTEGRATION_COLLECTION = /^[A-Za-z][A-Za-z0-9_]{1,48}$/;

const typeOf = (schema: RegisterSchema | undefined) => (schema ? (Array.isArray(schema.type) ? schema.type[0] : schema.type) : undefined);
const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Fields sorted by their `order` keyword (seed 000 §5 "fields with order are sorted ascending"), then as written. */
export function orderedFields(schema: RegisterSchema): string[] {
  const keys = Object.keys(schema.properties ?? {});
  const orderOf = (key: string) => {
    const value = schema.properties?.[key]?.order;
    return typeof value === 'number' ? value : Number.POSITIVE_INFINITY;
  };
  return keys.map((key, index) => ({ key, index })).sort((a, b) => orderOf(a.key) - orderOf(b.key) || a.index - b.index).map((e) => e.key);
}

/**
 * The register an integration renders as: its master schema, a UI schema ordering the fields,
 * and list metadata (title, icon, columns from the scalar fields with the column translations,
 * sort from orderBy). Throws (parseDefinition's errors) when the schema cannot make a register.
 */
/** The field of a record that holds its items when the integration has vjsfSchemaItens. */
export const ITEMS_FIELD = 'itens';

/** An object schema with at least one property, or null (vjsfSchemaItens / vjsfSchemaParams left empty). */
export function objectSchemaOrNull(schema: unknown): RegisterSchema | null {
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties) || Object.keys(schema.properties).length === 0) return null;
  return schema as RegisterSchema;
}

/**
 * The schema records are validated with and forms are generated from: the master schema plus,
 * when vjsfSchemaItens is set, an `itens` array whose elements follow it (a sub-form per item).
 * A master that defines `itens` itself keeps its own.
 */
export function integrationSchema(integration: IntegrationDefinition): RegisterSchema {
  const schema = integration.vjsfSchemaMaster;
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) throw new Error(INTEGRATION_MESSAGES.schemaNotObject);
  const items = objectSchemaOrNull(integration.vjsfSchemaItens);
  if (!items || ITEMS_FIELD in schema.properties) return schema;
  const { title, ...itemSchema } = items as RegisterSchema & { title?: string };
  const maxOrder = Math.max(0, ...Object.values(schema.properties as Record<string, RegisterSchema>).map((p) => (typeof p.order === 'number' ? p.order : 0)));
  return {
    ...schema,
    properties: { ...schema.properties, [ITEMS_FIELD]: { type: 'array', title: typeof title === 'string' && title ? title : INTEGRATION_MESSAGES.itemsTitle, items: itemSchema, order: maxOrder + 1 } as RegisterSchema },
  };
}

export function integrationRegister(integration: IntegrationDefinition): RegisterDefinition {
  const schema = integrationSchema(integration);
  const properties = schema.properties as Record<string, RegisterSchema>;
  const fields = orderedFields(schema);
  const scalar = fields.filter((f) => ['string', 'number', 'integer', 'boolean'].includes(typeOf(properties[f]) ?? ''));
  const strings = scalar.filter((f) => typeOf(properties[f]) === 'string');
  const titleField = strings[0] ?? scalar[0];
  if (!titleField) throw new Error(INTEGRATION_MESSAGES.schemaNoFields);
  const translations = integration.tableHeaders?.columnsTranslations ?? {};
  const columns: RegisterColumn[] = scalar.slice(0, 6).map((field) => {
    const type = typeOf(properties[field]);
    return {
      field,
      ...(typeof translations[field] === 'string' && { label: translations[field] }),
      ...(type === 'boolean' ? { type: 'boolean' as const } : type === 'number' || type === 'integer' ? { type: 'number' as const } : {}),
    };
  });
  const sortField = integration.orderBy && scalar.includes(integration.orderBy) ? integration.orderBy : titleField;
  const label = integration.listTitle || integration.name;
  return parseDefinition(integration.collection, {
    schema,
    ui: { 'ui:order': [...fields, '*'] },
    list: {
      name: integration.collection,
      label,
      // The list title is a plural ('Equipamentos X'): without a singular item title the form
      // says 'Novo registro de Equipamentos X', never 'Novo Equipamentos X'.
      itemLabel: integration.listItemTitle || format(INTEGRATION_MESSAGES.recordOf, { label }),
      gender: integration.listItemTitle ? genderOf(integration.listItemTitle) : 'm',
      icon: integration.listIcon || 'ListAlt',
      route: `/${integration.register}`,
      access: 'user',
      titleField,
      columns,
      searchFields: strings.length ? strings.slice(0, 3) : [titleField],
      filters: scalar,
      sort: { field: sortField, order: 'ASC' },
      pageSizes: [10, 20, 50],
      perPage: 10,
      toolbar: ['create', 'bulkDelete'],
      rowActions: ['show', 'edit', 'delete', 'duplicate'],
      csvTemplate: [],
    },
  });
}

/** The signed-in user as the visibility rules need it. */
export interface IntegrationViewer {
  id: string;
  claims?: Record<string, boolean | undefined> | null;
  /** Per-register integration claims (seed 000 §6 claimsIntegrations): { register: true } or [register]. */
  claimsIntegrations?: unknown;
}

function holdsIntegrationClaim(user: IntegrationViewer, integration: IntegrationDefinition): boolean {
  const claims = user.claimsIntegrations;
  const keys = [integration.register, integration.collection, integration.id];
  if (Array.isArray(claims)) return keys.some((k) => claims.includes(k));
  if (isObject(claims)) return keys.some((k) => claims[k] === true);
  return false;
}

/**
 * Seed 000 §6: admins see every integration. Others see an integration only when it is active,
 * has no departments or one of theirs (`userDepartments`: the departments listing them as
 * agent or supervisor), and — when adminOnly — they hold its claim in claimsIntegrations.
 * Departments with the claim hideIntegrations (`hidingDepartments`) hide integrations from their
 * users: one without departments is hidden from anyone in such a department, and one with
 * departments is seen only through a department of the user's that does not hide them.
 */
export function mayUseIntegration(
  integration: IntegrationDefinition,
  user: IntegrationViewer,
  userDepartments: readonly string[],
  hidingDepartments: readonly string[] = [],
): boolean {
  if (integration.lifeControl?.deletedAt) return false;
  if (user.claims?.admin) return true;
  if (integration.active === false) return false;
  if (integration.adminOnly && !holdsIntegrationClaim(user, integration)) return false;
  const departments = integration.departments ?? [];
  if (departments.length === 0) return !userDepartments.some((d) => hidingDepartments.includes(d));
  return departments.some((d) => userDepartments.includes(d) && !hidingDepartments.includes(d));
}

/**
 * An integration as GET /api/integration-definitions gives it to one user (docs/integrations.md):
 * the menu fields and the register view its generic screens render. `View` is the register view
 * as each side types it (the server's definition, the engine's RegisterView).
 */
export interface IntegrationView<View> {
  id: string;
  name: string;
  register: string;
  collection: string;
  order: number;
  menu: boolean;
  active: boolean;
  listTitle: string | null;
  listIcon: string | null;
  noItems: string;
  idField: string | null;
  /** Flagged `report`: the contact drawer offers a "Rel. {title}" table of its records (seed 001). */
  report?: boolean;
  /** Call-to-action documents (seed 000 §3): their labels, by set index. */
  documents: { index: number; label: string }[];
  /** vjsfSchemaParams: asked in a dialog before a document is sent (null: sent at once). */
  paramsSchema?: RegisterSchema | null;
  view: View;
}

/** One integration's items for a chat, as GET /api/integration-chat/{chatId} answers (findByChatId, docs/integrations.md). */
export interface ChatIntegrationSection {
  collection: string;
  name: string;
  title: string;
  noItems: string;
  titleField: string;
  /** The schema field that links a record to the chat (a new record from the panel starts with it). */
  linkField?: string | null;
  /** The schema's field titles by field ('cliente' → 'Cliente'): an item's line reads them, not the field names. */
  labels?: Record<string, string>;
  source: 'erp' | 'local';
  total: number;
  items: Record<string, unknown>[];
  /** The search failed (the section shows 'Erro na Busca!'). */
  error?: boolean;
}
