import { Alert, Box, Divider, Stack, Typography } from '@mui/material';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import { format, messages as texts, type MessageError } from '@atendimento/schemas';
import type { ChatMessage } from '../../model/chat';
import { formatPhone } from '../../ui/format';
import { usePhoneFormats } from '../../ui/phoneFormats';

type Props = { message: ChatMessage };
const k = texts.whatsappKinds;

/** A price in its own currency (a catalog may sell in ILS, USD...), pt-BR digits. */
export function money(value: number, currency: string | undefined): string {
  try {
    return new Intl.NumberFormat('pt-BR', { style: 'currency', currency: currency || 'BRL' }).format(value);
  } catch {
    return `${value.toFixed(2).replace('.', ',')} ${currency ?? ''}`.trim();
  }
}

/**
 * A catalog order: each product with quantity, unit price and subtotal in its currency, the
 * customer's note, the catalog, and the total (one per currency when they are mixed).
 */
export function OrderMessage({ message }: Props) {
  const order = message.order;
  const items = order?.product_items ?? [];
  const totals = new Map<string, number>();
  for (const i of items) totals.set(i.currency || 'BRL', (totals.get(i.currency || 'BRL') ?? 0) + (i.item_price ?? 0) * (i.quantity ?? 1));
  const single = totals.size <= 1 && typeof order?.total === 'number' ? [[[...totals.keys()][0] ?? 'BRL', order.total] as const] : [...totals.entries()];
  return (
    <Box data-order sx={{ minWidth: 220 }}>
      <Stack direction="row" spacing={0.5} sx={{
        alignItems: "center"
      }}>
        <ShoppingCartIcon fontSize="small" />
        <Typography variant="subtitle2">{k.order}</Typography>
        <Typography variant="caption" sx={{
          color: "text.secondary"
        }}>· {format(k.orderItems, { n: items.reduce((n, i) => n + (i.quantity ?? 1), 0) })}</Typography>
      </Stack>
      {items.map((i, n) => (
        <Box key={n} sx={{ display: 'flex', gap: 1, justifyContent: 'space-between' }} data-order-item>
          <Typography variant="body2">{i.quantity ?? 1} × {i.product_retailer_id} — {money(i.item_price ?? 0, i.currency)}</Typography>
          <Typography variant="body2" sx={{
            color: "text.secondary"
          }}>{money((i.item_price ?? 0) * (i.quantity ?? 1), i.currency)}</Typography>
        </Box>
      ))}
      <Divider sx={{ my: 0.5 }} />
      {single.map(([currency, total]) => (
        <Typography key={currency} variant="body2"><strong>{k.orderTotal}: {money(total, currency)}</strong></Typography>
      ))}
      {order?.text && <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-wrap' }}>{order.text}</Typography>}
      {order?.catalog_id && <Typography
        variant="caption"
        sx={{
          color: "text.secondary",
          display: "block"
        }}>{format(k.orderCatalog, { id: order.catalog_id })}</Typography>}
    </Box>
  );
}

/** A notice from WhatsApp about the customer (number or identity changed), written in pt-BR. */
export function SystemNoticeMessage({ message }: Props) {
  usePhoneFormats();
  const system = message.system;
  let text = message.text ?? '';
  if (system?.type === 'user_changed_number' && system.previousPhone && system.newPhone) {
    text = format(k.numberChanged, { old: formatPhone(system.previousPhone), new: formatPhone(system.newPhone) });
  } else if (system?.type === 'user_changed_user_id' && system.previousUserId && system.newUserId) {
    text = format(k.userIdChanged, { old: system.previousUserId, new: system.newUserId });
  } else if (system?.type === 'customer_identity_changed') {
    text = k.identityChanged;
  } else if (!text && system) {
    text = format(k.otherNotice, { body: system.body ?? system.type });
  }
  return (
    <Stack direction="row" spacing={1} data-system-notice={system?.type ?? ''} sx={{
      alignItems: "flex-start"
    }}>
      <InfoOutlinedIcon fontSize="small" color="action" />
      <Typography variant="body2">{text}</Typography>
    </Stack>
  );
}

/** The provider's errors on a message: pt-BR title, code and WhatsApp's own details. */
function ErrorList({ errors }: { errors: MessageError[] }) {
  return (
    <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
      {errors.map((e, i) => (
        <Typography key={i} component="li" variant="caption" sx={{
          display: "list-item"
        }}>
          {e.titleptBR ?? e.title}
          {e.code !== undefined && ` (${format(k.errorCode, { code: String(e.code) })})`}
          {e.details && <Typography
            component="span"
            variant="caption"
            sx={{
              color: "text.secondary",
              display: "block"
            }}>{e.details}</Typography>}
        </Typography>
      ))}
    </Box>
  );
}

/**
 * What the customer sent and WhatsApp could not deliver to us (an enquete, a view-once
 * message...): what arrived, what to ask the customer, and the provider's error.
 */
export function UnsupportedMessage({ message }: Props) {
  const providerType = message.unsupported?.providerType ?? 'unsupported';
  const kind = k.kinds[providerType] ?? format(k.someKind, { type: providerType });
  const codes = new Set((message.providerErrors ?? []).map((e) => Number(e.code)));
  const hint = codes.has(131052) ? k.mediaHint : codes.has(131051) || providerType !== 'unsupported' ? k.unsupportedHint : k.resendHint;
  return (
    <Alert severity="warning" icon={false} sx={{ py: 0, px: 1, bgcolor: 'transparent' }} data-unsupported={providerType}>
      <Typography variant="body2" sx={{
        fontWeight: 600
      }}>{format(k.unsupportedTitle, { kind })}</Typography>
      <Typography variant="body2">{hint}</Typography>
      {message.providerErrors?.length ? <ErrorList errors={message.providerErrors} /> : null}
    </Alert>
  );
}

/** Errors WhatsApp attached to a message that still has content: shown under it. */
export function ProviderErrorsNote({ message }: Props) {
  if (!message.providerErrors?.length || message.type === 'unsupported') return null;
  return (
    <Box sx={{ mt: 0.5, color: 'warning.dark' }} data-provider-errors>
      <Typography variant="caption" sx={{
        display: "block"
      }}>{k.withError}</Typography>
      <ErrorList errors={message.providerErrors} />
    </Box>
  );
}

/** 'nome_completo' → 'Nome completo'; 'dataEntrega' → 'Data entrega'. */
function label(key: string): string {
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function answer(value: unknown): string {
  if (value === true) return 'Sim';
  if (value === false) return 'Não';
  if (Array.isArray(value)) return value.map(answer).join(', ');
  if (value && typeof value === 'object') return JSON.stringify(value);
  return String(value ?? '');
}

/** The answers of a WhatsApp Flow (`nfm_reply.response_json`) as a list; the flow token is internal. */
export function FlowReplyMessage({ message }: Props) {
  const reply = message.interactive?.nfm_reply;
  let fields: [string, unknown][] = [];
  try {
    const parsed = JSON.parse(reply?.response_json ?? '{}') as Record<string, unknown>;
    fields = Object.entries(parsed && typeof parsed === 'object' ? parsed : {}).filter(([key]) => key !== 'flow_token');
  } catch {
    fields = [];
  }
  return (
    <Box data-flow-reply>
      <Typography variant="subtitle2">{k.flowAnswered}</Typography>
      {fields.length === 0 ? (
        <Typography variant="body2" sx={{
          color: "text.secondary"
        }}>{reply?.body ?? k.flowEmpty}</Typography>
      ) : (
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1 }}>
          {fields.map(([key, value]) => (
            <Box key={key} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" sx={{
                color: "text.secondary"
              }}>{label(key)}</Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>{answer(value)}</Typography>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
