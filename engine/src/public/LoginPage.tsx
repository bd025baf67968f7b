import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import GoogleIcon from '@mui/icons-material/Google';
import { hasTenantClaim, publicMessages as messages, pathAfterSignIn } from '@atendimento/schemas';
import { useAppConfig } from '../boot/AppConfigContext';
import { requestEmailLink, requestPasswordRecovery, signIn } from '../api/auth';
import { session } from '../api/session';
import { loadApp } from '../appLoader';
import { EmailRequestDialog } from './EmailRequestDialog';
import { googlePopupSignIn } from './googlePopup';
import { PasswordField } from './PasswordField';
import { useNavigate } from '../navigation/NavigationContext';
import { PublicLayout } from './PublicLayout';
import { checkEmail, checkSignInPassword, errorsOf } from './validation';

type Phase = { kind: 'idle' } | { kind: 'validating' } | { kind: 'done' } | { kind: 'error'; message: string };

/**
 * Sign-in (seed 002 §2, §4, §8): e-mail, password with show/hide, Entrar, the forgot-password
 * dialog, an e-mailed sign-in link, and the Google button only with the googleSignIn claim.
 * A session still valid in this browser goes straight to the app.
 */
export function LoginPage({ prefetch = loadApp }: { prefetch?: () => unknown }) {
  const config = useAppConfig();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [dialog, setDialog] = useState<'recovery' | 'link' | null>(null);

  useEffect(() => {
    let live = true;
    void session.restore().then((user) => {
      if (live && user) navigate(pathAfterSignIn(user), { replace: true });
    });
    return () => {
      live = false;
    };
  }, [navigate]);

  // 'Entrar com Google' (docs/auth.md "Google"): the popup's flow sets the session cookie.
  async function google() {
    setPhase({ kind: 'validating' });
    const result = await googlePopupSignIn();
    if (!result.ok) return setPhase({ kind: 'error', message: result.message });
    const user = await session.restore();
    if (!user) return setPhase({ kind: 'error', message: messages.auth.googleFlowInvalid });
    setPhase({ kind: 'done' });
    navigate(pathAfterSignIn(user), { replace: true });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = errorsOf({ email: checkEmail(email), password: checkSignInPassword(password) });
    setErrors(found);
    if (Object.keys(found).length) return;
    setPhase({ kind: 'validating' });
    // The app's code downloads while the password is checked.
    void Promise.resolve()
      .then(prefetch)
      .catch(() => undefined);
    try {
      const user = await signIn(email, password);
      setPhase({ kind: 'done' });
      navigate(pathAfterSignIn(user), { replace: true });
    } catch (error) {
      setPhase({ kind: 'error', message: (error as Error).message });
    }
  }

  const busy = phase.kind === 'validating' || phase.kind === 'done';
  return (
    <PublicLayout title={messages.shell.signIn}>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label={messages.shell.signIn}>
        {phase.kind === 'validating' && (
          <Alert severity="info" icon={false}>
            {messages.auth.validating}
            <LinearProgress sx={{ mt: 1 }} />
          </Alert>
        )}
        {phase.kind === 'done' && <Alert severity="success">{messages.auth.signedIn}</Alert>}
        {phase.kind === 'error' && <Alert severity="error">{phase.message}</Alert>}
        <TextField
          name="email"
          type="email"
          label={messages.shell.email}
          autoComplete="username"
          autoFocus
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={Boolean(errors.email)}
          helperText={errors.email}
        />
        <PasswordField
          name="password"
          label={messages.shell.password}
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={Boolean(errors.password)}
          helperText={errors.password}
        />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {messages.shell.signIn}
        </Button>
        <Stack
          direction="row"
          sx={{
            justifyContent: "space-between",
            flexWrap: "wrap"
          }}>
          <Button size="small" onClick={() => setDialog('recovery')}>
            {messages.shell.forgotPassword}
          </Button>
          <Button size="small" onClick={() => setDialog('link')}>
            {messages.shell.emailLink}
          </Button>
        </Stack>
        {hasTenantClaim(config, 'googleSignIn') && (
          <>
            <Divider />
            <Button
              variant="outlined"
              startIcon={<GoogleIcon />}
              disabled={phase.kind === 'validating'}
              onClick={() => void google()}
            >
              {messages.shell.googleSignIn}
            </Button>
          </>
        )}
      </Stack>
      <EmailRequestDialog
        key={dialog ?? 'closed'}
        open={dialog !== null}
        title={dialog === 'link' ? messages.shell.emailLink : messages.shell.recoveryTitle}
        text={dialog === 'link' ? messages.shell.emailLinkText : messages.shell.recoveryText}
        initialEmail={email}
        onClose={() => setDialog(null)}
        onSubmit={dialog === 'link' ? requestEmailLink : requestPasswordRecovery}
      />
    </PublicLayout>
  );
}
