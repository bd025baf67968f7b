import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { publicMessages as messages } from '@atendimento/schemas';
import { showToast } from '../ui/toast';
import { checkEmail } from './validation';

/**
 * Asks for an e-mail and sends a link to it: the forgot-password dialog and the e-mailed
 * sign-in link share it. Success toasts the server's message ('Email enviado com sucesso!').
 */
export function EmailRequestDialog(props: {
  open: boolean;
  title: string;
  text: string;
  initialEmail?: string;
  onClose: () => void;
  onSubmit: (email: string) => Promise<string>;
}) {
  const [email, setEmail] = useState(props.initialEmail ?? '');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = checkEmail(email);
    setError(invalid);
    setFailure(null);
    if (invalid) return;
    setSending(true);
    try {
      showToast(await props.onSubmit(email.trim()), 'success');
      props.onClose();
    } catch (err) {
      setFailure((err as Error).message || messages.auth.internalError);
    } finally {
      setSending(false);
    }
  }

  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{props.title}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{props.text}</DialogContentText>
          {failure && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {failure}
            </Alert>
          )}
          <TextField
            autoFocus
            fullWidth
            type="email"
            name="email"
            label={messages.shell.email}
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={Boolean(error)}
            helperText={error ?? ' '}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose}>{messages.shell.cancel}</Button>
          <Button type="submit" variant="contained" disabled={sending}>
            {messages.shell.send}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
