import Alert from '@mui/material/Alert';
import { messages } from '@atendimento/schemas';

/** The demo-database banner (seed 000 §1), shown when the tenant configuration says demoDatabase. */
export function DemoBanner({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <Alert severity="warning" variant="standard" sx={{ borderRadius: 0, py: 0, justifyContent: 'center' }}>
      {messages.shell.demoDatabase}
    </Alert>
  );
}
