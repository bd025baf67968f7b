import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Form from '@rjsf/mui';
import { englishStringTranslator, TranslatableString, type ErrorSchema, type RJSFSchema } from '@rjsf/utils';
import { messages } from '@atendimento/schemas';
import type { RegisterRecord } from '@atendimento/schemas/registers/index';
import type { RegisterView } from '../definitions';
import { REGISTER_FIELDS, REGISTER_WIDGETS } from './registry';
import { errorSchemaOf, translateErrors } from './registerValidator';
import { useFormValidator } from './useFormValidator';
import Typography from '@mui/material/Typography';
import { bodyOf, fieldsOfError, formDataOf, messageOfError, uiSchemaFor } from './formData';

const DEFAULT_FORM_STATE = { arrayMinItems: { populate: 'never' } } as const;

export interface RegisterFormProps {
  view: RegisterView;
  mode: 'create' | 'edit' | 'show';
  /** The stored record (edit, show) or the copy to start from (duplicate). */
  record?: Partial<RegisterRecord> | null;
  /** Saves the body (POST or PUT); rejects with the server's error to show it on the fields. */
  onSave?: (body: Record<string, unknown>) => Promise<void>;
  onCancel?: () => void;
}

/** rjsf's own button titles in pt-BR (array sub-forms: add, remove, move, copy). */
const PT_BR_STRINGS: Partial<Record<TranslatableString, string>> = {
  [TranslatableString.AddButton]: 'Adicionar',
  [TranslatableString.AddItemButton]: 'Adicionar item',
  [TranslatableString.CopyButton]: 'Copiar',
  [TranslatableString.MoveDownButton]: 'Mover para baixo',
  [TranslatableString.MoveUpButton]: 'Mover para cima',
  [TranslatableString.RemoveButton]: 'Remover',
};
const translateString = (text: TranslatableString, params?: string[]) => PT_BR_STRINGS[text] ?? englishStringTranslator(text, params);

/**
 * A register's form, generated from its definition with @rjsf/mui: the widgets of our
 * registry, the same schema and ajv options as the server, the seed's pt-BR messages. Errors
 * the server finds (400 `fields`) land on their fields; any other failure opens the 'Erro'
 * dialog with the server's message (seed 000 §8).
 */
export function RegisterForm({ view, mode, record, onSave, onCancel }: RegisterFormProps) {
  const schema = view.schema as RJSFSchema;
  const [formData, setFormData] = useState<Record<string, unknown>>(() => formDataOf(view.schema, record));
  const [extraErrors, setExtraErrors] = useState<ErrorSchema | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const uiSchema = useMemo(() => uiSchemaFor(view, record, mode), [view, record, mode]);
  const transformErrors = useMemo(() => translateErrors(schema), [schema]);
  const readOnly = mode === 'show' || view.readOnly;
  const { validator, error: validatorError } = useFormValidator(view);

  async function submit(data: Record<string, unknown>) {
    if (!onSave || readOnly) return;
    setSaving(true);
    setExtraErrors(undefined);
    try {
      await onSave(bodyOf(view.schema, data));
    } catch (error) {
      const fields = fieldsOfError(error);
      if (fields.length) setExtraErrors(errorSchemaOf(fields));
      else setFailure(messageOfError(error));
    } finally {
      setSaving(false);
    }
  }

  if (!validator) {
    return validatorError ? <Alert severity="error">{validatorError}</Alert> : <Typography color="text.secondary">{messages.table.loading}</Typography>;
  }

  return (
    <Box sx={{ maxWidth: 880 }}>
      {view.readOnly && mode !== 'show' && <Alert severity="info" sx={{ mb: 2 }}>{messages.registers.readOnly}</Alert>}
      <Form
        schema={schema}
        uiSchema={uiSchema}
        formData={formData}
        validator={validator}
        widgets={REGISTER_WIDGETS}
        fields={REGISTER_FIELDS}
        translateString={translateString}
        formContext={{ record }}
        transformErrors={transformErrors}
        // minItems is validated, never pre-filled: CGC starts as no entry, not one empty chip.
        experimental_defaultFormStateBehavior={DEFAULT_FORM_STATE}
        extraErrors={extraErrors}
        showErrorList={false}
        // A long form (Configurações) refused on a field far above the button: take the user there.
        focusOnFirstError
        noHtml5Validate
        disabled={readOnly || saving}
        onChange={(event) => setFormData(event.formData as Record<string, unknown>)}
        onSubmit={(event) => void submit(event.formData as Record<string, unknown>)}
      >
        {readOnly ? (
          onCancel ? <Button onClick={onCancel}>{messages.registers.close}</Button> : <></>
        ) : (
          <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
            <Button type="submit" variant="contained" disabled={saving}>
              {messages.registers.save}
            </Button>
            {onCancel && (
              <Button onClick={onCancel} disabled={saving}>
                {messages.registers.cancel}
              </Button>
            )}
          </Box>
        )}
      </Form>
      {saving && <LinearProgress sx={{ mt: 1 }} />}
      <Dialog open={failure !== null} onClose={() => setFailure(null)}>
        <DialogTitle>{messages.table.errorTitle}</DialogTitle>
        <DialogContent>{failure}</DialogContent>
        <DialogActions>
          <Button onClick={() => setFailure(null)}>{messages.registers.close}</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
