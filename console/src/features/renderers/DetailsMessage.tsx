import { useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import type { ChatMessage } from '../../model/chat';

/** Request dialog titles by collection (seed 001 §2 "Message renderers"). */
const REQUEST_TITLES: Record<string, string> = {
  departaments: 'Departamentos',
  contacts: 'Contatos',
  rooms: 'Chats',
  users: 'Agentes',
};

/** Telephony webhook fields described in Portuguese. */
const WEBHOOK_FIELDS: Record<string, string> = {
  origin: 'Origem',
  destination: 'Destino',
  callId: 'Identificador da chamada',
  duration: 'Duração',
  status: 'Situação',
  direction: 'Direção',
  startTime: 'Início',
  endTime: 'Fim',
  recordUrl: 'Gravação',
  agent: 'Agente',
  queue: 'Fila',
  phone: 'Telefone',
};

function title(m: ChatMessage): string {
  if (m.type === 'request') {
    const endpoint = m.request?.body?.ENDPOINT;
    return REQUEST_TITLES[m.request?.collection ?? ''] ?? (endpoint ? `Requisição ${endpoint}` : 'Requisição');
  }
  if (m.type === 'webhook') return `Webhook${m.webhook?.origin ? ` - ${m.webhook.origin}` : ''}`;
  return 'Transferência';
}

function rows(m: ChatMessage): [string, string][] {
  const out: [string, string][] = [];
  const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));
  if (m.type === 'request' && m.request) {
    for (const [k, v] of Object.entries(m.request.body ?? {})) out.push([k, show(v)]);
    if (m.request.response !== undefined) out.push(['Resposta', show(m.request.response)]);
    if (m.request.error) out.push(['Erro', show(m.request.error)]);
  } else if (m.type === 'webhook' && m.webhook) {
    for (const [k, v] of Object.entries(m.webhook.body ?? {})) out.push([WEBHOOK_FIELDS[k] ?? k, show(v)]);
  } else if (m.transfer) {
    const names = (list?: { displayName?: string | null; name?: string | null; id: string }[]) => (list ?? []).map((n) => n.displayName ?? n.name ?? n.id).join(', ');
    if (m.transfer.transferFrom) out.push(['De', names(m.transfer.transferFrom)]);
    if (m.transfer.transferTo) out.push(['Para', names(m.transfer.transferTo)]);
    if (m.transfer.transferBy) out.push(['Por', m.transfer.transferBy.displayName ?? m.transfer.transferBy.id]);
    if (m.transfer.transferJustify) out.push(['Justificativa', m.transfer.transferJustify]);
    if (m.transfer.transferObs) out.push(['Observação', m.transfer.transferObs]);
  }
  return out;
}

/** Request, webhook and transfer messages: a line of text and a details dialog (values shown as text). */
export function DetailsMessage({ message }: { message: ChatMessage }) {
  const [open, setOpen] = useState(false);
  const heading = title(message);
  return (
    <Box>
      <Typography variant="body2">{message.text ?? heading}</Typography>
      <Button size="small" startIcon={<InfoIcon />} onClick={() => setOpen(true)}>Detalhes</Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="sm" fullWidth>
        <DialogTitle>{heading}</DialogTitle>
        <DialogContent>
          <Table size="small">
            <TableBody>
              {rows(message).map(([k, v]) => (
                <TableRow key={k}>
                  <TableCell sx={{ fontWeight: 600, verticalAlign: 'top' }}>{k}</TableCell>
                  <TableCell><Box component="pre" sx={{ m: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'inherit' }}>{v}</Box></TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </DialogContent>
        <DialogActions><Button onClick={() => setOpen(false)}>Fechar</Button></DialogActions>
      </Dialog>
    </Box>
  );
}
