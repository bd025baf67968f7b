import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { publicMessages as messages } from '@atendimento/schemas';
import { signUp } from '../api/auth';
import { loadApp } from '../appLoader';
import { PasswordField } from './PasswordField';
import { useNavigate } from '../navigation/NavigationContext';
import { PublicLayout } from './PublicLayout';
import { checkConfirmation, checkDisplayName, checkEmail, errorsOf } from './validation';
import { checkNewPassword } from './new-password';

type Field = 'displayName' | 'email' | 'password' | 'confirmPassword';
type Phase = { kind: 'idle' } | { kind: 'busy'; text: string } | { kind: 'error'; message: string };

/**
 * Sign-up (seed 002 §2, §4): display name, e-mail, password, confirmation; Cadastrar. The
 * route guard sends visitors to / when the tenant has no publicRegister claim.
 */
export function RegisterPage({ prefetch = loadApp }: { prefetch?: () => unknown }) {
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({ displayName: '', email: '', password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const set = (field: Field) => (event: { target: { value: string } }) => setValues((old) => ({ ...old, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = errorsOf<Field>({
      displayName: checkDisplayName(values.displayName),
      email: checkEmail(values.email),
      password: checkNewPassword(values.password, values.email),
      confirmPassword: checkConfirmation(values.password, values.confirmPassword),
    });
    setErrors(found);
    if (Object.keys(found).length) return;
    setPhase({ kind: 'busy', text: messages.auth.signingUp });
    void Promise.resolve()
      .then(prefetch)
      .catch(() => undefined);
    try {
      await signUp(values);
      setPhase({ kind: 'busy', text: `${messages.auth.signedUp} ${messages.auth.entering}` });
      navigate('/', { replace: true });
    } catch (error) {
      const apiFields = (error as { fields?: { field: string; message: string }[] }).fields ?? [];
      if (apiFields.length) setErrors(Object.fromEntries(apiFields.map((f) => [f.field, f.message])));
      setPhase({ kind: 'error', message: (error as Error).message });
    }
  }

  const field = (name: Field, label: string, autoComplete: string) => ({
    name,
    label,
    autoComplete,
    value: values[name],
    onChange: set(name),
    error: Boolean(errors[name]),
    helperText: errors[name],
  });

  return (
    <PublicLayout title={messages.shell.signUp}>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label={messages.shell.signUp}>
        {phase.kind === 'busy' && (
          <Alert severity="info" icon={false}>
            {phase.text}
            <LinearProgress sx={{ mt: 1 }} />
          </Alert>
        )}
        {phase.kind === 'error' && <Alert severity="error">{phase.message}</Alert>}
        <TextField autoFocus {...field('displayName', messages.shell.displayName, 'name')} />
        <TextField type="email" {...field('email', messages.shell.email, 'email')} />
        <PasswordField {...field('password', messages.shell.password, 'new-password')} />
        <PasswordField {...field('confirmPassword', messages.shell.confirmPassword, 'new-password')} />
        <Button type="submit" variant="contained" size="large" disabled={phase.kind === 'busy'}>
          {messages.shell.signUp}
        </Button>
      </Stack>
    </PublicLayout>
  );
}
