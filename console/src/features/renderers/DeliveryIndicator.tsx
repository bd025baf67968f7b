import { Box, IconButton, Tooltip } from '@mui/material';
import ScheduleIcon from '@mui/icons-material/Schedule';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import type { Delivery } from './messageState';

const LABELS: Record<Delivery, string> = {
  waiting: 'Aguardando envio',
  sent: 'Enviada',
  delivered: 'Entregue',
  read: 'Lida',
  failed: 'Falha no envio',
  deleted: 'Apagada',
};

/** Waiting → sent → delivered → read, or failed with the error text and a resend button. */
export function DeliveryIndicator({ state, failure, onResend }: { state: Delivery; failure?: string; onResend?: () => void }) {
  const label = state === 'failed' && failure ? failure : LABELS[state];
  const icon =
    state === 'waiting' ? <ScheduleIcon sx={{ fontSize: 14 }} /> :
    state === 'sent' ? <DoneIcon sx={{ fontSize: 14 }} /> :
    state === 'delivered' ? <DoneAllIcon sx={{ fontSize: 14 }} /> :
    state === 'read' ? <DoneAllIcon sx={{ fontSize: 14, color: '#34b7f1' }} /> :
    state === 'failed' ? <ErrorIcon sx={{ fontSize: 14, color: 'error.main' }} /> : null;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center' }} data-delivery={state}>
      <Tooltip title={label}><Box component="span" aria-label={label} role="img" sx={{ display: 'inline-flex' }}>{icon}</Box></Tooltip>
      {state === 'failed' && onResend && (
        <Tooltip title="Reenviar">
          <IconButton size="small" aria-label="Reenviar" onClick={onResend} sx={{ p: 0.25 }}><ReplayIcon sx={{ fontSize: 14 }} /></IconButton>
        </Tooltip>
      )}
    </Box>
  );
}
