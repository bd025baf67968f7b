import { useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { publicMessages as messages, pathAfterSignIn } from '@atendimento/schemas';
import { completeEmailLink, rememberedEmail } from '../api/auth';
import { ApiError } from '../api/api';
import { useLocation, useNavigate } from '../navigation/NavigationContext';
import { PublicLayout } from './PublicLayout';
import { checkEmail } from './validation';

type Phase = { kind: 'ask' } | { kind: 'validating' } | { kind: 'done' } | { kind: 'error'; message: string };

/**
 * Completion of an e-mailed link (seed 002 §2 "Finish sign-up"): with the e-mail remembered
 * on this browser it finishes at once, otherwise it asks for it. An expired or used link goes
 * to /linkexpirado; a password-recovery link lands on /profile (the server sets updatePass).
 */
export function FinishSignUpPage() {
  const navigate = useNavigate();
  const token = new URLSearchParams(useLocation().search).get('token') ?? '';
  const [email, setEmail] = useState(() => rememberedEmail() ?? '');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>(() => (!token ? { kind: 'error', message: messages.auth.linkInvalid } : rememberedEmail() ? { kind: 'validating' } : { kind: 'ask' }));
  const started = useRef(false);

  async function complete(address: string) {
    setPhase({ kind: 'validating' });
    try {
      const user = await completeEmailLink(token, address);
      setPhase({ kind: 'done' });
      navigate(pathAfterSignIn(user), { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'link_expired') {
        navigate('/linkexpirado', { replace: true });
        return;
      }
      setPhase({ kind: 'error', message: (error as Error).message });
    }
  }

  useEffect(() => {
    // Links are single-use: never send the token twice (StrictMode runs effects twice).
    if (started.current || !token) return;
    started.current = true;
    const remembered = rememberedEmail();
    if (remembered) void complete(remembered);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = checkEmail(email);
    setEmailError(invalid);
    if (!invalid) void complete(email);
  }

  return (
    <PublicLayout title={messages.shell.finishTitle}>
      {phase.kind === 'validating' && (
        <Alert severity="info" icon={false}>
          {messages.auth.validating}
          <LinearProgress sx={{ mt: 1 }} />
        </Alert>
      )}
      {phase.kind === 'done' && <Alert severity="success">{messages.auth.signedIn}</Alert>}
      {phase.kind === 'error' && <Alert severity="error">{phase.message}</Alert>}
      {token && (phase.kind === 'ask' || phase.kind === 'error') && (
        <Stack component="form" spacing={2} onSubmit={submit} noValidate>
          <Typography color="text.secondary">{messages.shell.finishText}</Typography>
          <TextField
            name="email"
            type="email"
            label={messages.shell.email}
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={Boolean(emailError)}
            helperText={emailError}
          />
          <Button type="submit" variant="contained" size="large">
            {messages.shell.continue}
          </Button>
        </Stack>
      )}
    </PublicLayout>
  );
}
