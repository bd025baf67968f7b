/**
 * Input types of generated forms (seed 000 §3 "Form input types"), by the name a ui.json uses.
 * Values are rendered by rjsf widgets (`"ui:widget": name`) except the FIELD_NAMES, which take
 * over a whole property (`"ui:field": name`): objects, lists of objects and non-values.
 * The engine's registry (engine/src/registers/form/widgets) has exactly one component per name.
 */
export const WIDGET_NAMES = [
  'text',
  'password',
  'textarea',
  'select',
  'autocomplete',
  'combobox',
  'date',
  'time',
  'switch',
  'checkbox',
  'color',
  'file',
  'pdf',
  'draggableList',
  'imageView',
] as const;

export const FIELD_NAMES = ['jsonEditor', 'schemaForm', 'dataTable', 'actionButton', 'divider'] as const;

export type WidgetName = (typeof WIDGET_NAMES)[number];
export type FieldName = (typeof FIELD_NAMES)[number];

/** Every `ui:widget` / `ui:field` value used in a UI schema, with its dotted property path. */
function uiNamesIn(uiSchema: unknown, path = ''): { path: string; kind: 'widget' | 'field'; name: string }[] {
  if (!uiSchema || typeof uiSchema !== 'object' || Array.isArray(uiSchema)) return [];
  const out: { path: string; kind: 'widget' | 'field'; name: string }[] = [];
  for (const [key, value] of Object.entries(uiSchema)) {
    if (key === 'ui:widget' && typeof value === 'string') out.push({ path, kind: 'widget', name: value });
    else if (key === 'ui:field' && typeof value === 'string') out.push({ path, kind: 'field', name: value });
    else if (!key.startsWith('ui:')) out.push(...uiNamesIn(value, path ? `${path}.${key}` : key));
  }
  return out;
}
