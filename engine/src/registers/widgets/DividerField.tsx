import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import type { FieldProps } from '@rjsf/utils';

/** A section title between fields ('Bloqueios', 'Dados do contato'): a schema property of type null. */
export function DividerField({ schema, uiSchema }: FieldProps) {
  const title = (uiSchema?.['ui:title'] as string | undefined) ?? schema.title;
  return (
    <Divider textAlign="left" sx={{ mt: 2, mb: 1 }}>
      {title && (
        <Typography variant="overline" color="text.secondary">
          {title}
        </Typography>
      )}
    </Divider>
  );
}
