import { useState } from 'react';
import Button from '@mui/material/Button';
import type { FieldProps } from '@rjsf/utils';
import { apiRequest } from '../../api/api';
import { showToast } from '../../ui/toast';

/**
 * A button inside a form that calls the API with the form's record id
 * (`ui:options.method`, `ui:options.path` with {id}), toasting the answer's message.
 */
export function ActionButtonField({ uiSchema, schema, name, disabled, registry }: FieldProps) {
  const options = (uiSchema?.['ui:options'] ?? {}) as { method?: 'POST' | 'PATCH'; path?: string; label?: string };
  const record = (registry.formContext as { record?: { id?: string } } | undefined)?.record;
  const [busy, setBusy] = useState(false);
  const path = options.path && record?.id ? options.path.replace('{id}', encodeURIComponent(record.id)) : null;
  return (
    <Button
      variant="outlined"
      disabled={disabled || busy || !path}
      onClick={async () => {
        if (!path) return;
        setBusy(true);
        try {
          const { body } = await apiRequest<{ data?: { message?: string }; message?: string }>(path, { method: options.method ?? 'POST' });
          const message = body?.data?.message ?? body?.message;
          if (message) showToast(message, 'success');
        } catch {
          // apiRequest already toasted the server's message.
        } finally {
          setBusy(false);
        }
      }}
    >
      {options.label ?? schema.title ?? name}
    </Button>
  );
}
