import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PhotoCamera from '@mui/icons-material/PhotoCamera';
import { hasTenantClaim, messages, type AppConfig, type User } from '@atendimento/schemas';
import { api, ApiError } from '../api/api';
import { session } from '../api/session';
import { PasswordField } from '../public/PasswordField';
import { checkConfirmation, checkDisplayName, errorsOf } from '../public/validation';
import { checkNewPassword } from '../public/new-password';
import { showToast } from '../ui/toast';
import { UserAvatar } from '../ui/UserAvatar';
import { AvatarCropDialog } from './AvatarCropDialog';
import { maskWhatsapp } from './whatsappMask';

type Field = 'displayName' | 'currentPassword' | 'password' | 'confirmPassword' | 'whatsapp';

/**
 * Profile (seed 002 §2, §5): avatar upload cropped to 512×512 JPEG, display name, read-only
 * e-mail, new password and confirmation, WhatsApp only when allowFollowMe is on for the tenant
 * and the user, the first-access banner while updatePass is set; Atualizar. Changing a password
 * the user has asks for it first ('Senha atual', docs/security.md); not on a first access, after
 * a recovery link, or for an account without one.
 */
export function ProfilePage({ user, config }: { user: User; config: Pick<AppConfig, 'claims'> }) {
  const showWhatsapp = hasTenantClaim(config, 'allowFollowMe') && Boolean(user.claims.allowFollowMe);
  const askCurrent = Boolean(user.hasPassword) && !user.updatePass;
  const [values, setValues] = useState<Record<Field, string>>({
    displayName: user.displayName,
    currentPassword: '',
    password: '',
    confirmPassword: '',
    whatsapp: maskWhatsapp(user.whatsapp ?? ''),
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);
  const [image, setImage] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const set = (field: Field) => (event: ChangeEvent<HTMLInputElement>) =>
    setValues((old) => ({ ...old, [field]: field === 'whatsapp' ? maskWhatsapp(event.target.value) : event.target.value }));
  /** A field's name, value, change handler and error, as every input of the form takes them. */
  const fieldProps = (field: Field) => ({ name: field, value: values[field], onChange: set(field), error: Boolean(errors[field]), helperText: errors[field] });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const changingPassword = user.updatePass || values.password !== '' || values.confirmPassword !== '';
    const found = errorsOf<Field>({
      displayName: checkDisplayName(values.displayName),
      currentPassword: changingPassword && askCurrent && values.currentPassword === '' ? messages.validation.currentPasswordRequired : null,
      password: changingPassword ? checkNewPassword(values.password) : null,
      confirmPassword: changingPassword ? checkConfirmation(values.password, values.confirmPassword) : null,
      whatsapp: null,
    });
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      const body: Record<string, unknown> = { displayName: values.displayName.trim() };
      if (changingPassword) Object.assign(body, { password: values.password, confirmPassword: values.confirmPassword, ...(askCurrent && { currentPassword: values.currentPassword }) });
      if (showWhatsapp) body.whatsapp = values.whatsapp.replace(/\D/g, '') ? values.whatsapp : null;
      const answer = await api<{ data: User }>('/api/profile', { method: 'PATCH', body, notify: false });
      session.updateUser(answer.data);
      setValues((old) => ({ ...old, currentPassword: '', password: '', confirmPassword: '' }));
      showToast(messages.auth.profileUpdated, 'success');
    } catch (error) {
      if (error instanceof ApiError && error.fields.length) setErrors(Object.fromEntries(error.fields.map((f) => [f.field, f.message])));
      showToast((error as Error).message, 'error');
    } finally {
      setSaving(false);
    }
  }

  function pickPhoto(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) setImage(URL.createObjectURL(file));
  }

  function closeCrop() {
    if (image) URL.revokeObjectURL(image);
    setImage(null);
  }

  async function uploadPhoto(jpegDataUrl: string) {
    try {
      const answer = await api<{ data: User }>('/api/profile/photo', { method: 'POST', body: { data: jpegDataUrl, mimeType: 'image/jpeg' } });
      session.updateUser(answer.data);
      showToast(messages.shell.photoUpdated, 'success');
      closeCrop();
    } catch {
      // The API client already toasted the server's message.
    }
  }

  return (
    <Box sx={{ maxWidth: 560, width: '100%', mx: 'auto' }}>
      <Paper component="form" onSubmit={submit} noValidate aria-label={messages.shell.update} sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack spacing={2.5}>
          {user.updatePass && <Alert severity="warning" data-password-notice={user.updatePassReason ?? 'firstAccess'}>{passwordNotice(user.updatePassReason)}</Alert>}
          <Stack direction="row" spacing={2} sx={{
            alignItems: "center"
          }}>
            <UserAvatar user={user} size={88} />
            <Box>
              <Typography variant="h6">{user.displayName}</Typography>
              <Button size="small" startIcon={<PhotoCamera />} onClick={() => fileInput.current?.click()}>
                {messages.shell.changePhoto}
              </Button>
              <input ref={fileInput} type="file" accept="image/jpeg,image/png,image/webp" hidden onChange={pickPhoto} data-testid="photo-input" />
            </Box>
          </Stack>
          <TextField
            name="displayName"
            label={messages.shell.displayName}
            value={values.displayName}
            onChange={set('displayName')}
            error={Boolean(errors.displayName)}
            helperText={errors.displayName}
          />
          <TextField name="email" label={messages.shell.email} value={user.email} slotProps={{ input: { readOnly: true } }} disabled />
          {askCurrent && <PasswordField {...fieldProps('currentPassword')} label={messages.shell.currentPassword} autoComplete="current-password" />}
          <PasswordField {...fieldProps('password')} label={messages.shell.newPassword} autoComplete="new-password" />
          <PasswordField {...fieldProps('confirmPassword')} label={messages.shell.confirmNewPassword} autoComplete="new-password" />
          {showWhatsapp && (
            <TextField
              name="whatsapp"
              label={messages.shell.whatsapp}
              placeholder="+55 (11) 98765.4321"
              inputMode="tel"
              value={values.whatsapp}
              onChange={set('whatsapp')}
              error={Boolean(errors.whatsapp)}
              helperText={errors.whatsapp}
            />
          )}
          <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button type="submit" variant="contained" disabled={saving}>
              {messages.shell.update}
            </Button>
          </Box>
        </Stack>
      </Paper>
      <AvatarCropDialog image={image} onCancel={closeCrop} onCropped={uploadPhoto} />
    </Box>
  );
}

/** Why the profile asks for a new password: first access, a recovery link, or a confirmed e-mail. */
function passwordNotice(reason: User['updatePassReason']): string {
  if (reason === 'recovery') return messages.passwordNotices.recovery;
  if (reason === 'emailConfirmed') return messages.passwordNotices.emailConfirmed;
  return messages.auth.firstAccess;
}
