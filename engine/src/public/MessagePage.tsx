import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { publicMessages as messages } from '@atendimento/schemas';
import { RouteLink } from '../navigation/NavigationContext';
import { PublicLayout } from './PublicLayout';

/** The two message cards of seed 000 §2: /linkexpirado ('Link Expirado') and /404 ('404'). */
export function MessagePage({ kind }: { kind: 'linkExpired' | 'notFound' }) {
  const expired = kind === 'linkExpired';
  return (
    <PublicLayout title={expired ? messages.pages.linkExpired : messages.pages.notFound}>
      <Typography
        sx={{
          color: "text.secondary",
          textAlign: "center"
        }}>
        {expired ? messages.shell.linkExpiredText : messages.shell.notFoundText}
      </Typography>
      <Button component={RouteLink} to={expired ? '/login' : '/'} variant="contained">
        {expired ? messages.shell.backToLogin : messages.shell.backHome}
      </Button>
    </PublicLayout>
  );
}
