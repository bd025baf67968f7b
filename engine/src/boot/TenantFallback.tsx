import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { publicMessages as messages } from '@atendimento/schemas';

/**
 * The two full-page start-up fallbacks (seed 000 §2): an inactive tenant ('Acesso
 * Desabilitado.') and a configuration that could not be fetched after 5 attempts.
 */
export function TenantFallback({ kind }: { kind: 'blocked' | 'unreachable' }) {
  const blocked = kind === 'blocked';
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}>
      <Paper elevation={2} sx={{ p: 4, maxWidth: 480, textAlign: 'center' }} role={blocked ? 'alert' : undefined}>
        <Typography variant="h5" component="h1" gutterBottom>
          {blocked ? messages.tenant.blockedTitle : messages.tenant.unreachable}
        </Typography>
        <Typography color="text.secondary">{blocked ? messages.tenant.blockedDetail : messages.tenant.unreachableHint}</Typography>
        {!blocked && (
          <Button variant="contained" sx={{ mt: 3 }} onClick={() => window.location.reload()}>
            {messages.shell.reload}
          </Button>
        )}
      </Paper>
    </Box>
  );
}
