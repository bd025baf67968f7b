/**
 * The groups of `messages` (schemas/src/messages.ts), each in a module of its own under texts/.
 * `messages` is this module's namespace, so `messages.chat.x` is a static member access the
 * bundler resolves to texts/chat.ts: a screen's chunk carries the groups it reads, not all of
 * them (a module is never split between chunks; docs/console.md "Loading").
 */

import { publicMessages } from './public-messages';

export const { tenant, pages, validation, auth, errors, shell } = publicMessages;

export { passwordNotices } from './texts/passwordNotices';
export { presence } from './texts/presence';
export { drawer } from './texts/drawer';
export { table } from './texts/table';
export { contact } from './texts/contact';
export { documents } from './texts/documents';
export { dashboard } from './texts/dashboard';
export { summary } from './texts/summary';
export { api } from './texts/api';
export { chat } from './texts/chat';
export { chatServer } from './texts/chatServer';
export { mail } from './texts/mail';
export { internalChat } from './texts/internalChat';
export { survey } from './texts/survey';
export { transfer } from './texts/transfer';
export { routing } from './texts/routing';
export { lastMessageLabels } from './texts/lastMessageLabels';
export { whatsappKinds } from './texts/whatsappKinds';
export { whatsapp } from './texts/whatsapp';
export { channelAdmin } from './texts/channelAdmin';
export { tenantSettings } from './texts/tenantSettings';
export { campaigns } from './texts/campaigns';
export { flows } from './texts/flows';
export { webchat } from './texts/webchat';
export { realtime } from './texts/realtime';
export { ops } from './texts/ops';
export { lgpd } from './texts/lgpd';
export { registers } from './texts/registers';
export { integrations } from './texts/integrations';
