/**
 * Every user-facing pt-BR text quoted in the specification (shared/seeds), kept in one place so
 * the server, the engine and the console say exactly the same thing. Spelling quirks of the
 * original product ('Noficações', 'admninistrador', 'Hitorico') are kept on purpose.
 */

import * as messages from './message-texts';

export { publicMessages } from './public-messages';

/** Every group of texts: `messages.chat.unreadMany`. A namespace, so unread groups stay out of a bundle. */
export { messages };

/** Replaces `{name}` placeholders, e.g. `format(messages.chat.unreadMany, { n: 3 })`. */
export function format(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}
