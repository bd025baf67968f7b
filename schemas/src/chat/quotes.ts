/**
 * The quotes portal ('Orçamentos', seed 001 §8): an external page framed beside the chat,
 * filtered by the contact's ERP client. Its address is the tenant's `quotesUrl`; the client's
 * code and store go where the address says `{cliente}` and `{loja}`, or as the query parameters
 * `cliente` and `loja` when it names neither.
 */

/** Splits a contact's client key (A1_COD + A1_LOJA: '000123' + '01') back into code and store. */
export function splitClientKey(key: string): { A1_COD: string; A1_LOJA: string } | null {
  const clean = key.trim();
  if (!/^[A-Za-z0-9]{3,20}$/.test(clean)) return null;
  return { A1_COD: clean.slice(0, -2), A1_LOJA: clean.slice(-2) };
}

/** The portal address for one client. */
export function quotesPortalUrl(template: string, client: { A1_COD: string; A1_LOJA: string }): string {
  if (/\{(cliente|loja)\}/.test(template)) {
    return template.replace(/\{cliente\}/g, encodeURIComponent(client.A1_COD)).replace(/\{loja\}/g, encodeURIComponent(client.A1_LOJA));
  }
  const url = new URL(template);
  url.searchParams.set('cliente', client.A1_COD);
  url.searchParams.set('loja', client.A1_LOJA);
  return url.toString();
}

/** The pane id of a chat's quotes portal in the console (beside the chat, like a second chat). */
const QUOTES_PANE = 'quotes:';
export const quotesPaneId = (roomId: string) => `${QUOTES_PANE}${roomId}`;
export const quotesPaneRoom = (paneId: string) => (paneId.startsWith(QUOTES_PANE) ? paneId.slice(QUOTES_PANE.length) : null);
