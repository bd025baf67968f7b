import type { ComponentType } from 'react';
import type { FieldProps } from '@rjsf/utils';

/**
 * A list of small records shown as rows (automatic-message rules, chassis, photos): rjsf's own
 * array field with the register's add label; kept as a named field so a ui.json can ask for it
 * and a richer table can replace it in one place.
 */
export function DataTableField(props: FieldProps) {
  const ArrayField = props.registry.fields.ArrayField as ComponentType<FieldProps>;
  const options = (props.uiSchema?.['ui:options'] ?? {}) as Record<string, unknown>;
  const uiSchema = { ...props.uiSchema, 'ui:options': { orderable: false, ...options } };
  return <ArrayField {...props} uiSchema={uiSchema} />;
}

/** A nested object rendered as its own sub-form (rjsf's object field under a title). */
export function SchemaFormField(props: FieldProps) {
  const ObjectField = props.registry.fields.ObjectField as ComponentType<FieldProps>;
  return <ObjectField {...props} />;
}
