import { useEffect, useState } from 'react';
import TextField from '@mui/material/TextField';
import type { FieldProps } from '@rjsf/utils';
import { messages } from '@atendimento/schemas';

const show = (value: unknown) => (value === undefined || value === null ? '' : JSON.stringify(value, null, 2));

/**
 * Any JSON value (a flow's definition) edited as text: the value changes only when the text
 * parses, and 'JSON inválido' shows until it does.
 */
export function JsonEditorField({ fieldPathId, formData, schema, name, disabled, readonly, onChange, rawErrors, uiSchema }: FieldProps) {
  const [text, setText] = useState(() => show(formData));
  const [invalid, setInvalid] = useState(false);
  // A record loaded after the first render (edit) replaces the text.
  useEffect(() => {
    setText((current) => {
      try {
        return JSON.stringify(JSON.parse(current || 'null')) === JSON.stringify(formData ?? null) ? current : show(formData);
      } catch {
        return current;
      }
    });
  }, [formData]);
  const label = (uiSchema?.['ui:title'] as string | undefined) ?? schema.title ?? name;
  return (
    <TextField
      id={fieldPathId.$id}
      label={label}
      multiline
      minRows={6}
      fullWidth
      value={text}
      disabled={disabled || readonly}
      error={invalid || Boolean(rawErrors?.length)}
      helperText={invalid ? messages.registers.jsonInvalid : (schema.description ?? rawErrors?.[0])}
      slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } } }}
      onChange={(event) => {
        const next = event.target.value;
        setText(next);
        if (next.trim() === '') {
          setInvalid(false);
          onChange(undefined, fieldPathId.path);
          return;
        }
        try {
          const parsed: unknown = JSON.parse(next);
          setInvalid(false);
          onChange(parsed, fieldPathId.path);
        } catch {
          setInvalid(true);
        }
      }}
    />
  );
}
