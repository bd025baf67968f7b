import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Form from '@rjsf/mui';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { messages } from '@atendimento/schemas';
import { REGISTER_FIELDS, REGISTER_WIDGETS } from '../form/registry';
import { registerValidator, translateErrors } from '../form/registerValidator';

export interface WidgetHarnessProps {
  schema: RJSFSchema;
  uiSchema?: UiSchema;
  formData?: Record<string, unknown>;
  /** What the register form passes its fields (the edited record, for action buttons). */
  formContext?: Record<string, unknown>;
}

/**
 * Stories and specs of widgets: a one-field form with the register registry, validator and
 * pt-BR messages. The submitted value shows in `data-testid="submitted"`.
 */
export function WidgetHarness({ schema, uiSchema, formData, formContext }: WidgetHarnessProps) {
  const [data, setData] = useState<Record<string, unknown>>(formData ?? {});
  const [submitted, setSubmitted] = useState<string>('');
  return (
    <Box sx={{ p: 2, maxWidth: 520 }}>
      <Form
        schema={schema}
        uiSchema={uiSchema}
        formData={data}
        formContext={formContext}
        validator={registerValidator}
        widgets={REGISTER_WIDGETS}
        fields={REGISTER_FIELDS}
        transformErrors={translateErrors(schema)}
        showErrorList={false}
        noHtml5Validate
        onChange={(event) => setData(event.formData as Record<string, unknown>)}
        onSubmit={(event) => setSubmitted(JSON.stringify(event.formData))}
      >
        <Button type="submit" variant="contained" sx={{ mt: 2 }}>
          {messages.registers.save}
        </Button>
      </Form>
      <pre data-testid="submitted">{submitted}</pre>
    </Box>
  );
}
