import type { RegistryFieldsType, RegistryWidgetsType } from '@rjsf/utils';
import { getDefaultRegistry } from '@rjsf/core';
import { Widgets as MuiWidgets } from '@rjsf/mui';
import type { FieldName, WidgetName } from '@atendimento/schemas/registers/index';
import { AutocompleteWidget } from '../widgets/AutocompleteWidget';
import { ColorWidget } from '../widgets/ColorWidget';
import { ComboboxWidget } from '../widgets/ComboboxWidget';
import { DateWidget } from '../widgets/DateWidget';
import { DraggableListWidget } from '../widgets/DraggableListWidget';
import { FileWidget, PdfWidget } from '../widgets/FileWidget';
import { ImageViewWidget } from '../widgets/ImageViewWidget';
import { SwitchWidget } from '../widgets/SwitchWidget';
import { TimeWidget } from '../widgets/TimeWidget';
import { DividerField } from '../widgets/DividerField';
import { JsonEditorField } from '../widgets/JsonEditorField';
import { DataTableField, SchemaFormField } from '../widgets/DataTableField';
import { ActionButtonField } from '../widgets/ActionButtonField';

/**
 * The widget registry of generated forms: one component per name a ui.json may use
 * (WIDGET_NAMES / FIELD_NAMES in schemas/src/registers/widgets.ts). Plain inputs are
 * @rjsf/mui's; the rest are ours. The `satisfies` clauses make a name added to the schemas'
 * list without a component here a type error.
 *
 * To add a widget: add its name to WIDGET_NAMES (or FIELD_NAMES), write widgets/<Name>Widget.tsx
 * with a story and a spec, and map it below.
 */
// Text and password are rjsf's own widgets drawn through the MUI theme's input template.
const core = getDefaultRegistry().widgets;

export const REGISTER_WIDGETS = {
  text: core.TextWidget!,
  password: core.PasswordWidget!,
  textarea: MuiWidgets.TextareaWidget!,
  select: MuiWidgets.SelectWidget!,
  checkbox: MuiWidgets.CheckboxWidget!,
  autocomplete: AutocompleteWidget,
  combobox: ComboboxWidget,
  date: DateWidget,
  time: TimeWidget,
  switch: SwitchWidget,
  color: ColorWidget,
  file: FileWidget,
  pdf: PdfWidget,
  draggableList: DraggableListWidget,
  imageView: ImageViewWidget,
} satisfies Record<WidgetName, unknown> as RegistryWidgetsType;

export const REGISTER_FIELDS = {
  jsonEditor: JsonEditorField,
  schemaForm: SchemaFormField,
  dataTable: DataTableField,
  actionButton: ActionButtonField,
  divider: DividerField,
} satisfies Record<FieldName, unknown> as RegistryFieldsType;
