import { useState, type ReactElement } from 'react';
import { Box, Button, MenuItem, Typography } from '@mui/material';
import { channelIs } from '@atendimento/schemas';
import type { TemplateSendInput } from '@atendimento/schemas/chat/whatsapp';
import { useConsole } from '../../ConsoleContext';
import type { Contact, Room } from '../../model/chat';
import { useStore } from '../../store/createStore';
import { newIdempotencyKey } from '../../model/chatApi';
import { InteractiveDialog } from './InteractiveDialog';
import { TemplateDialog } from './TemplateDialog';
import { whatsappTexts } from './texts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Seed 001 §4 "Composer restriction": on Cloud API channels only templates go when the
 * contact's last reply and the chat's last contact message are both a day old or more (or
 * unknown); a contact without the whatsapp channel is not restricted. The server enforces it
 * (422); this is the composer saying so in advance.
 */
export function windowClosed(room: Room, contact: Contact | undefined, now: number): boolean {
  if (!channelIs(room.channel, 'window24h') || room.internal) return false;
  if (contact?.channels && !contact.channels.includes('whatsapp')) return false;
  const channelId = Array.isArray(room.channelId) ? room.channelId[0] : room.channelId;
  const times = [room.lastMessages?.contactMessage?.createdAt, channelId ? (contact as Record<string, unknown> | undefined)?.[`${channelId}LastReply`] : undefined]
    .map((v) => (typeof v === 'string' ? Date.parse(v) : NaN))
    .filter(Number.isFinite);
  return !times.some((at) => now - at < DAY_MS);
}

const chatTemplatePath = (roomId: string) => `/api/rooms/${encodeURIComponent(roomId)}/message/template`;

/**
 * The composer's WhatsApp entries (attach menu): 'Template' (Cloud API channels; the seed's
 * template dialog, the message the 24-hour window lets through) and 'Mensagem interativa'
 * (buttons or list). `items(close)` are the menu items; `dialogs` renders the open dialog.
 */
export function useWhatsappComposer(room: Room): { items: (close: () => void) => ReactElement[]; dialogs: ReactElement | null; banner: ReactElement | null; windowClosed: boolean } {
  const { api, stores, now } = useConsole();
  const [open, setOpen] = useState<'template' | 'interactive' | null>(null);
  const contact = useStore(stores.contacts, (st) => (room.author?.id ? st.records[room.author.id] : undefined));
  if (room.internal || !channelIs(room.channel, 'whatsapp')) return { items: () => [], dialogs: null, banner: null, windowClosed: false };
  const channelId = Array.isArray(room.channelId) ? room.channelId[0] ?? null : room.channelId ?? null;
  const templates = channelIs(room.channel, 'templates');
  const items = (close: () => void) => [
    ...(templates ? [<MenuItem key="wa-template" onClick={() => { close(); setOpen('template'); }}>{whatsappTexts.templates.open}</MenuItem>] : []),
    ...(channelIs(room.channel, 'interactive') ? [<MenuItem key="wa-interactive" onClick={() => { close(); setOpen('interactive'); }}>{whatsappTexts.interactive.open}</MenuItem>] : []),
  ];
  const sendTemplate = (template: TemplateSendInput) => api.request(chatTemplatePath(room.id), { method: 'POST', body: { template, clientId: newIdempotencyKey() }, notify: false });
  const dialogs = (
    <>
      {templates && <TemplateDialog open={open === 'template'} channelId={channelId ? String(channelId) : null} onClose={() => setOpen(null)} onSend={sendTemplate} />}
      <InteractiveDialog open={open === 'interactive'} roomId={room.id} onClose={() => setOpen(null)} />
    </>
  );
  const closed = windowClosed(room, contact, now());
  const banner = closed ? (
    <Box sx={{ bgcolor: '#fff3e0', px: 2, py: 0.5, display: 'flex', alignItems: 'center', gap: 1 }} role="status" data-window-closed>
      <Typography variant="caption" sx={{ flex: 1 }}>{whatsappTexts.composer.windowClosed}</Typography>
      <Button size="small" onClick={() => setOpen('template')}>{whatsappTexts.templates.open}</Button>
    </Box>
  ) : null;
  return { items, dialogs, banner, windowClosed: closed };
}
