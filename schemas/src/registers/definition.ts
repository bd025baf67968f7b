import type { AccessRule, RouteAccess } from '../access';
import { routeMeta } from './route-meta';
import type { RegisterColumn, RegisterDefinition, RegisterListMeta, RegisterSchema, RegisterUiSchema, RowAction, ToolbarAction } from './types';

export { routeMeta, type RegisterRouteFields } from './route-meta';

/** The three files of a register folder, already parsed from JSON. */
export interface RegisterFiles {
  schema: unknown;
  ui?: unknown;
  list: unknown;
}

const ACCESS: readonly RouteAccess[] = ['user', 'admin-or-permission', 'tenantClaim', 'admin'];
const TOOLBAR: readonly ToolbarAction[] = ['create', 'csv', 'print', 'import', 'upload', 'subCollectionExport', 'bulkDelete', 'xlsx'];
const ROW_ACTIONS: readonly RowAction[] = ['show', 'edit', 'delete', 'duplicate', 'removeClients', 'sendLogin', 'rules', 'lgpd'];
/** Folder names become URL segments and live collection names. */
const REGISTER_NAME = /^[A-Za-z][A-Za-z0-9_]{1,48}$/;
/** Field paths allowed in filters and columns (never raw SQL: they name JSON paths). */
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

function fail(name: string, problem: string): never {
  throw new Error(`registerDefinition: register "${name}" ${problem}. Fix schemas/registers/${name}/ (see docs/registers.md).`);
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/**
 * Checks a register folder's files and fills the list metadata's defaults, so every consumer
 * (server, engine) sees one complete shape. Throws an error naming the folder and the fix.
 */
export function parseDefinition(folder: string, files: RegisterFiles): RegisterDefinition {
  if (!REGISTER_NAME.test(folder)) fail(folder, 'has an invalid folder name (letters, digits and _ only, starting with a letter)');
  const schema = files.schema;
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) fail(folder, 'needs schema.json with "type": "object" and "properties"');
  const properties = schema.properties as Record<string, RegisterSchema>;
  const list = files.list;
  if (!isObject(list)) fail(folder, 'needs list.json');
  const ui = files.ui === undefined ? {} : files.ui;
  if (!isObject(ui)) fail(folder, 'has a ui.json that is not an object');

  const route = routeMeta(folder, list);
  const { name, access } = route;
  if (name !== folder) fail(folder, `names itself "${name}" in list.json; the folder name and "name" must match`);
  if (!ACCESS.includes(access)) fail(folder, `has access "${String(access)}"; use one of ${ACCESS.join(', ')}`);
  if (access === 'tenantClaim' && typeof list.claim !== 'string') fail(folder, 'has access "tenantClaim" without "claim"');
  const writeAccess = list.writeAccess === undefined ? undefined : (list.writeAccess as RouteAccess);
  if (writeAccess !== undefined && !ACCESS.includes(writeAccess)) fail(folder, `has writeAccess "${String(writeAccess)}"; use one of ${ACCESS.join(', ')}`);

  const fieldsKnown = (fields: string[], what: string) => {
    for (const field of fields) {
      if (!FIELD_PATH.test(field)) fail(folder, `lists "${field}" in ${what}, which is not a field path`);
      const top = field.split('.')[0]!;
      if (!(top in properties) && top !== 'id' && top !== 'lifeControl') fail(folder, `lists "${field}" in ${what}, but schema.json has no property "${top}"`);
    }
  };

  const titleField = typeof list.titleField === 'string' ? list.titleField : 'name' in properties ? 'name' : 'displayName';
  if (!(titleField in properties)) fail(folder, `has titleField "${titleField}" that is not a schema property`);

  const columns: RegisterColumn[] = Array.isArray(list.columns)
    ? (list.columns as unknown[]).map((c) => (typeof c === 'string' ? { field: c } : (c as RegisterColumn)))
    : [{ field: titleField }];
  fieldsKnown(columns.map((c) => c.field), 'columns');
  const searchFields = list.searchFields === undefined ? [titleField] : strings(list.searchFields);
  fieldsKnown(searchFields, 'searchFields');
  const filters = [...new Set([...strings(list.filters), ...searchFields, titleField])];
  fieldsKnown(filters, 'filters');
  const sortIn = isObject(list.sort) ? list.sort : {};
  const sort = { field: typeof sortIn.field === 'string' ? sortIn.field : titleField, order: sortIn.order === 'DESC' ? 'DESC' : 'ASC' } as const;
  if (sort.field !== 'lifeControl.createdAt' && !filters.includes(sort.field)) filters.push(sort.field);

  const toolbar = list.toolbar === undefined ? ['create', 'csv', 'print', 'import', 'bulkDelete', 'xlsx'] : strings(list.toolbar);
  for (const action of toolbar) if (!TOOLBAR.includes(action as ToolbarAction)) fail(folder, `has unknown toolbar action "${action}"`);
  const rowActions = list.rowActions === undefined ? ['show', 'edit', 'delete', 'duplicate'] : strings(list.rowActions);
  for (const action of rowActions) if (!ROW_ACTIONS.includes(action as RowAction)) fail(folder, `has unknown row action "${action}"`);
  const pageSizes = Array.isArray(list.pageSizes) ? (list.pageSizes as number[]).filter((n) => Number.isInteger(n) && n > 0 && n <= 100) : [10, 15, 20];
  const perPage = typeof list.perPage === 'number' && pageSizes.includes(list.perPage) ? list.perPage : pageSizes[0] ?? 10;

  const csvTemplate = list.csvTemplate === undefined ? Object.keys(properties).filter((k) => isImportable(properties[k]!)) : strings(list.csvTemplate);
  fieldsKnown(csvTemplate, 'csvTemplate');
  const adminFields = strings(list.adminFields);
  fieldsKnown(adminFields, 'adminFields');
  const fieldClaims = isObject(list.fieldClaims) ? (list.fieldClaims as Record<string, string>) : {};
  fieldsKnown(Object.keys(fieldClaims), 'fieldClaims');
  const serverFields = strings(list.serverFields);
  fieldsKnown(serverFields, 'serverFields');
  const writeOnlyFields = strings(list.writeOnlyFields);
  fieldsKnown(writeOnlyFields, 'writeOnlyFields');
  const ownerField = typeof list.ownerField === 'string' ? list.ownerField : undefined;
  if (ownerField) fieldsKnown([ownerField], 'ownerField');
  const scope = isObject(list.scope) ? (list.scope as unknown as RegisterListMeta['scope']) : undefined;
  if (scope) fieldsKnown([scope.field], 'scope.field');

  const meta: RegisterListMeta = {
    ...route,
    itemLabel: typeof list.itemLabel === 'string' ? list.itemLabel : route.label,
    gender: list.gender === 'f' ? 'f' : 'm',
    live: typeof list.live === 'string' ? list.live : name,
    ...(writeAccess && { writeAccess }),
    readOnlyClaims: strings(list.readOnlyClaims),
    titleField,
    columns,
    searchFields,
    filters,
    sort,
    perPage,
    pageSizes,
    toolbar: toolbar as ToolbarAction[],
    rowActions: rowActions as RowAction[],
    csvTemplate,
    ...(ownerField && { ownerField }),
    ...(ownerField && list.ownerlessShared === true && { ownerlessShared: true }),
    ...(ownerField && typeof list.ownerWideClaim === 'string' && { ownerWideClaim: list.ownerWideClaim }),
    adminFields,
    fieldClaims,
    serverFields,
    writeOnlyFields,
    ...(scope && { scope }),
    subCollections: strings(list.subCollections),
    children: strings(list.children),
    ...(typeof list.showOverride === 'string' && { showOverride: list.showOverride }),
  };
  return { name, schema: schema as RegisterSchema, uiSchema: ui as RegisterUiSchema, list: meta };
}

/** Scalar fields and lists of scalars can travel in a CSV cell; objects cannot. */
function isImportable(schema: RegisterSchema): boolean {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'array') {
    const items = schema.items?.type;
    return items === 'string' || items === 'number' || items === 'integer';
  }
  return type === 'string' || type === 'number' || type === 'integer' || type === 'boolean';
}

/** The permission a user claim must hold for an 'admin-or-permission' register. */
export function registerPermission(meta: Pick<RegisterListMeta, 'permission' | 'name' | 'route'>): string {
  return meta.permission ?? meta.route.replace(/^\/+/, '').split('/')[0] ?? meta.name;
}

/** A register's access rule (its list.json), for `allows`: the same rule as its screen. */
export function registerRule(meta: Pick<RegisterListMeta, 'access' | 'claim' | 'permission' | 'name' | 'route'>): AccessRule {
  return { access: meta.access, permission: registerPermission(meta), claim: meta.claim ?? null };
}

/** Who may write a register (its list.json `writeAccess`, else its screen rule): the server's write routes and the form's save button. */
export function registerWriteRule(meta: Pick<RegisterListMeta, 'access' | 'writeAccess' | 'claim' | 'permission' | 'name' | 'route'>): AccessRule {
  return { access: meta.writeAccess ?? meta.access, permission: registerPermission(meta), claim: meta.claim ?? null };
}

/** Sorts definitions by name, failing on duplicates (two folders claiming one collection). */
export function indexDefinitions(definitions: RegisterDefinition[]): Map<string, RegisterDefinition> {
  const map = new Map<string, RegisterDefinition>();
  for (const definition of [...definitions].sort((a, b) => a.name.localeCompare(b.name))) {
    if (map.has(definition.name)) fail(definition.name, 'is defined twice');
    map.set(definition.name, definition);
  }
  for (const definition of map.values()) {
    for (const child of definition.list.children) {
      if (!map.has(child)) fail(definition.name, `lists child register "${child}", which has no folder`);
    }
    const via = definition.list.scope?.via;
    if (via && !map.has(via)) fail(definition.name, `scopes rows via "${via}", which has no folder`);
  }
  return map;
}

/** Masculine words ending in -a that pt-BR forms meet ('Novo Sistema', 'Novo Dia'). */
const MASCULINE_A = new Set(['dia', 'mapa', 'sistema', 'problema', 'tema', 'programa', 'telefonema', 'esquema', 'clima', 'idioma', 'planeta', 'cinema', 'drama']);

/**
 * The grammatical gender of a singular pt-BR noun phrase by its first word's ending, for labels
 * typed by users (an integration's item title): -a, -ção, -são, -dade, -gem are feminine.
 */
export function genderOf(label: string): 'm' | 'f' {
  const first = label.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (MASCULINE_A.has(first)) return 'm';
  return /(a|ção|são|dade|gem)$/.test(first) ? 'f' : 'm';
}
