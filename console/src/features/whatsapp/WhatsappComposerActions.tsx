import { useState, type ReactElement } from 'react';
import { MenuItem } from '@mui/material';
import { WHATSAPP_CHANNELS, type ChannelType } from '@atendimento/schemas';
import type { TemplateSendInput } from '@atendimento/schemas/chat/whatsapp';
import { useConsole } from '../../ConsoleContext';
import type { Room } from '../../model/chat';
import { newIdempotencyKey } from '../../model/chatApi';
import { InteractiveDialog } from './InteractiveDialog';
import { TemplateDialog } from './TemplateDialog';
import { whatsappTexts } from './texts';

/** Channel types whose provider takes templates (Cloud API). */
const TEMPLATE_TYPES: readonly string[] = ['meta', 'dialog360', 'wa', 'whatsapp'];

export const chatTemplatePath = (roomId: string) => `/api/rooms/${encodeURIComponent(roomId)}/message/template`;

/**
 * The composer's WhatsApp entries (attach menu): 'Template' (Cloud API channels; the seed's
 * template dialog, the message the 24-hour window lets through) and 'Mensagem interativa'
 * (buttons or list). `items(close)` are the menu items; `dialogs` renders the open dialog.
 */
export function useWhatsappComposer(room: Room): { items: (close: () => void) => ReactElement[]; dialogs: ReactElement | null } {
  const { api } = useConsole();
  const [open, setOpen] = useState<'template' | 'interactive' | null>(null);
  if (room.internal || !WHATSAPP_CHANNELS.includes(room.channel as ChannelType)) return { items: () => [], dialogs: null };
  const channelId = Array.isArray(room.channelId) ? room.channelId[0] ?? null : room.channelId ?? null;
  const templates = TEMPLATE_TYPES.includes(room.channel);
  const items = (close: () => void) => [
    ...(templates ? [<MenuItem key="wa-template" onClick={() => { close(); setOpen('template'); }}>{whatsappTexts.templates.open}</MenuItem>] : []),
    <MenuItem key="wa-interactive" onClick={() => { close(); setOpen('interactive'); }}>{whatsappTexts.interactive.open}</MenuItem>,
  ];
  const sendTemplate = (template: TemplateSendInput) => api.request(chatTemplatePath(room.id), { method: 'POST', body: { template, clientId: newIdempotencyKey() }, notify: false });
  const dialogs = (
    <>
      {templates && <TemplateDialog open={open === 'template'} channelId={channelId ? String(channelId) : null} onClose={() => setOpen(null)} onSend={sendTemplate} />}
      <InteractiveDialog open={open === 'interactive'} roomId={room.id} onClose={() => setOpen(null)} />
    </>
  );
  return { items, dialogs };
}
