import { useState } from 'react';
import { Box, Button, Card, CardContent, CardMedia, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Link, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import PlaceIcon from '@mui/icons-material/Place';
import PhoneIcon from '@mui/icons-material/Phone';
import PersonIcon from '@mui/icons-material/Person';
import { messages as texts } from '@atendimento/schemas';
import type { ChatMessage } from '../../model/chat';
import { RichText, safeMediaSrc } from '../../ui/RichText';
import { formatDateTime, formatDuration, formatPhone } from '../../ui/format';
import { usePhoneFormats } from '../../ui/phoneFormats';
import { CALL_LABELS } from './messageState';
import { FlowReplyMessage } from './WhatsappKinds';

export { OrderMessage } from './WhatsappKinds';

type Props = { message: ChatMessage };

/** vCard phone types in pt-BR. */
const PHONE_TYPES: Record<string, string> = { CELL: 'celular', HOME: 'casa', WORK: 'trabalho', IPHONE: 'iPhone', MAIN: 'principal' };

/** Shared contacts (vCards): name, phones (each with its kind), e-mails, organisation. */
export function ContactsMessage({ message }: Props) {
  usePhoneFormats();
  const list = message.contacts ?? [];
  const single = message.contact;
  return (
    <Stack spacing={1}>
      {list.map((c, i) => (
        <Box key={i} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          <PersonIcon fontSize="small" />
          <Box>
            <Typography variant="subtitle2">{c.name?.formatted_name ?? c.nickname ?? 'Contato'}</Typography>
            {c.org?.company && <Typography variant="caption" sx={{
              display: "block"
            }}>{c.org.company}</Typography>}
            {(c.phones ?? []).map((p, j) => <Typography key={j} variant="body2"><span>{p.phone}</span>{p.type ? <Typography component="span" variant="caption" sx={{
              color: "text.secondary"
            }}> · {PHONE_TYPES[p.type.toUpperCase()] ?? p.type}</Typography> : null}</Typography>)}
            {(c.emails ?? []).map((e, j) => <Typography key={`e${j}`} variant="body2">{e.email}</Typography>)}
          </Box>
        </Box>
      ))}
      {single && (
        <Box sx={{ display: 'flex', gap: 1 }}>
          <PersonIcon fontSize="small" />
          <Box>
            <Typography variant="subtitle2">{single.displayName ?? single.contactName ?? 'Contato'}</Typography>
            {single.contactPhone && <Typography variant="body2">{formatPhone(single.contactPhone)}</Typography>}
            {single.contactBusinessDescription && <Typography variant="caption">{single.contactBusinessDescription}</Typography>}
          </Box>
        </Box>
      )}
    </Stack>
  );
}

/** Location as a link to a maps service (no embedded map: no key needed, no third-party script). */
export function LocationMessage({ message }: Props) {
  const loc = message.location;
  if (!loc) return <Typography variant="body2">Localização</Typography>;
  const href = `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${loc.latitude},${loc.longitude}`)}`;
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      <PlaceIcon fontSize="small" />
      <span>{loc.name ?? 'Localização'}{loc.address ? ` - ${loc.address}` : ''} ({Number(loc.latitude).toFixed(5)}, {Number(loc.longitude).toFixed(5)})</span>
    </Link>
  );
}

/** Card with image, title, subtitle and postback buttons (shown, not clickable). */
export function CardMessage({ message }: Props) {
  const card = message.card;
  if (!card) return <Typography variant="body2">Card</Typography>;
  return (
    <Card variant="outlined" sx={{ maxWidth: 280 }}>
      {safeMediaSrc(card.imageUri) && <CardMedia component="img" height="140" image={safeMediaSrc(card.imageUri)} alt={card.title ?? 'Card'} />}
      <CardContent>
        <Typography variant="subtitle2">{card.title}</Typography>
        {card.subtitle && <Typography variant="body2">{card.subtitle}</Typography>}
        <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
          {(card.buttons ?? []).map((b, i) => <Chip key={i} label={b.text} size="small" variant="outlined" />)}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** Link preview: image, title, description and the link. */
export function LinkMessage({ message }: Props) {
  const link = message.link;
  if (!link) return null;
  return (
    <Box>
      {link.message && <Typography variant="body2" sx={{ mb: 0.5 }}><RichText text={link.message} /></Typography>}
      <Card variant="outlined" sx={{ maxWidth: 300 }}>
        {safeMediaSrc(link.image) && <CardMedia component="img" height="120" image={safeMediaSrc(link.image)} alt={link.title ?? ''} />}
        <CardContent sx={{ py: 1 }}>
          <Typography variant="subtitle2">{link.title}</Typography>
          {link.linkDescription && <Typography variant="caption" sx={{
            display: "block"
          }}>{link.linkDescription}</Typography>}
          {link.linkUrl && <Typography variant="caption"><RichText text={link.linkUrl} /></Typography>}
        </CardContent>
      </Card>
    </Box>
  );
}

/** Template as sent: header, body, footer and buttons (or its rendered text). */
export function TemplateMessage({ message }: Props) {
  const t = message.template;
  const comps = (t?.components ?? []) as { type?: string; text?: string; buttons?: { text?: string }[] }[];
  const body = comps.find((c) => c.type?.toUpperCase() === 'BODY')?.text ?? t?.text ?? message.text ?? '';
  const header = comps.find((c) => c.type?.toUpperCase() === 'HEADER')?.text;
  const footer = comps.find((c) => c.type?.toUpperCase() === 'FOOTER')?.text;
  const buttons = comps.find((c) => c.type?.toUpperCase() === 'BUTTONS')?.buttons ?? [];
  return (
    <Box>
      <Typography variant="caption" sx={{
        color: "text.secondary"
      }}>Template{t?.name ? `: ${t.name}` : ''}</Typography>
      {header && <Typography variant="subtitle2">{header}</Typography>}
      <Typography variant="body2"><RichText text={body} /></Typography>
      {footer && <Typography variant="caption" sx={{
        color: "text.secondary"
      }}>{footer}</Typography>}
      {buttons.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
          {buttons.map((b, i) => <Chip key={i} label={b.text} size="small" variant="outlined" />)}
        </Stack>
      )}
    </Box>
  );
}

/** Interactive messages: buttons, list (opens the list-buttons modal), flow, catalog, and replies. */
type InteractiveView = {
  type: string;
  header?: { text?: string } | null;
  body?: { text?: string } | null;
  footer?: { text?: string } | null;
  action?: { buttons?: { reply?: { id: string; title: string } }[]; button?: string; name?: string; sections?: { title?: string; rows?: { id: string; title: string; description?: string }[] }[] } | null;
  button_reply?: { title: string };
  list_reply?: { title: string; description?: string };
  nfm_reply?: { body?: string } | unknown;
};

export function InteractiveMessage({ message }: Props) {
  const it = message.interactive as InteractiveView | undefined;
  const [open, setOpen] = useState(false);
  if (!it) return null;
  if (it.type === 'button_reply' || it.button_reply) return <Typography variant="body2">{it.button_reply?.title ?? message.text}</Typography>;
  if (it.type === 'list_reply' || it.list_reply) {
    return (
      <Box>
        <Typography variant="body2">{it.list_reply?.title ?? message.text}</Typography>
        {it.list_reply?.description && <Typography variant="caption" sx={{
          color: "text.secondary"
        }}>{it.list_reply.description}</Typography>}
      </Box>
    );
  }
  if (it.type === 'nfm_reply' || it.nfm_reply) return <FlowReplyMessage message={message} />;
  return (
    <Box>
      {it.header?.text && <Typography variant="subtitle2">{it.header.text}</Typography>}
      {it.body?.text && <Typography variant="body2"><RichText text={it.body.text} /></Typography>}
      {it.footer?.text && <Typography
        variant="caption"
        sx={{
          color: "text.secondary",
          display: "block"
        }}>{it.footer.text}</Typography>}
      {it.type === 'button' && (
        <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
          {(it.action?.buttons ?? []).map((b, i) => <Chip key={i} label={b.reply?.title} size="small" variant="outlined" />)}
        </Stack>
      )}
      {it.type === 'list' && (
        <>
          <Button size="small" onClick={() => setOpen(true)}>{it.action?.button ?? 'Ver opções'}</Button>
          <Dialog open={open} onClose={() => setOpen(false)} maxWidth="xs" fullWidth>
            <DialogTitle>{it.action?.button ?? 'Opções'}</DialogTitle>
            <DialogContent>
              {(it.action?.sections ?? []).map((s, i) => (
                <Box key={i}>
                  {s.title && <Typography variant="overline">{s.title}</Typography>}
                  <List dense>
                    {(s.rows ?? []).map((r) => <ListItem key={r.id}><ListItemText primary={r.title} secondary={r.description} /></ListItem>)}
                  </List>
                </Box>
              ))}
            </DialogContent>
            <DialogActions><Button onClick={() => setOpen(false)}>Fechar</Button></DialogActions>
          </Dialog>
        </>
      )}
      {it.type === 'flow' && <Chip label={it.action?.name ?? 'Flow'} size="small" sx={{ mt: 1 }} />}
      {(it.type === 'catalog_message' || message.type === 'catalog_message') && <Chip label="Catálogo" size="small" sx={{ mt: 1 }} />}
    </Box>
  );
}

/** Error-type message: its text with a 'recarregar' button that asks for the media again. */
export function ErrorMessage({ message, onReload }: Props & { onReload?: (m: ChatMessage) => void }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Typography variant="body2">{message.text ?? 'Erro ao carregar a mensagem'}</Typography>
      <Button size="small" variant="outlined" onClick={() => onReload?.(message)} disabled={!onReload}>{texts.chat.reload}</Button>
    </Box>
  );
}

/** Call record: direction label (Recebida, Iniciada, Perdida), times and duration. */
export function CallMessage({ message }: Props) {
  const call = message.call;
  const kind = (call?.type ?? call?.direction ?? '').toLowerCase();
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
      <PhoneIcon fontSize="small" />
      <Box>
        <Typography variant="body2">Chamada {CALL_LABELS[kind] ?? ''}</Typography>
        {call?.subject && <Typography variant="caption" sx={{
          display: "block"
        }}>{call.subject}</Typography>}
        {call?.callStartTime && <Typography variant="caption" sx={{
          display: "block"
        }}>{formatDateTime(call.callStartTime)}</Typography>}
        {typeof call?.duration === 'number' && <Typography variant="caption">{formatDuration(call.duration)}</Typography>}
      </Box>
    </Box>
  );
}
