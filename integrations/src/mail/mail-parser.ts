import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject, type HeaderValue } from 'mailparser';
import type { MailAddress, MailAutoKind } from '@atendimento/schemas';

/**
 * One raw RFC 5322 message (as IMAP hands it over) parsed into what the product stores:
 * threading ids, addresses, the text and the (still unsafe) HTML, attachments and whether it is
 * an auto-reply or a bounce. mailparser decodes every charset and walks nested multiparts.
 * The HTML is sanitised later (mail-sanitizer.ts), once inline parts have our URLs.
 */

export interface ParsedAttachment {
  fileName: string;
  mimeType: string;
  bytes: Buffer;
  /** Content-ID without angle brackets (inline images referenced as cid:). */
  contentId: string | null;
  /** Shown inside the HTML rather than listed (cid: referenced). */
  inline: boolean;
}

export interface ParsedMail {
  /** Message-ID without angle brackets; a mail without one gets 'hash:' + the SHA-256 of its bytes. */
  messageId: string;
  /** True when messageId is a content hash. */
  hashedId: boolean;
  inReplyTo: string | null;
  references: string[];
  subject: string;
  from: MailAddress | null;
  replyTo: MailAddress | null;
  to: MailAddress[];
  cc: MailAddress[];
  date: string | null;
  text: string;
  /** The mail's own HTML: never shown before sanitizeMailHtml. */
  unsafeHtml: string | null;
  attachments: ParsedAttachment[];
  auto: MailAutoKind | null;
}

/** Ids inside angle brackets; an id written without them is taken whole. */
export function messageIds(value: unknown): string[] {
  const parts = Array.isArray(value) ? value : value == null ? [] : [value];
  const out: string[] = [];
  for (const part of parts) {
    const text = String(part ?? '').trim();
    if (!text) continue;
    const bracketed = [...text.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1]!);
    if (bracketed.length) out.push(...bracketed);
    else out.push(...text.split(/\s+/).filter(Boolean));
  }
  return [...new Set(out.map((id) => id.slice(0, 900)))];
}

function addresses(value: AddressObject | AddressObject[] | undefined): MailAddress[] {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  const out: MailAddress[] = [];
  for (const item of list) {
    for (const v of item.value ?? []) {
      if (v.address) out.push({ name: (v.name ?? '').slice(0, 200), address: v.address.trim().toLowerCase().slice(0, 320) });
      for (const g of v.group ?? []) if (g.address) out.push({ name: (g.name ?? '').slice(0, 200), address: g.address.trim().toLowerCase().slice(0, 320) });
    }
  }
  return out;
}

function headerText(headers: Map<string, HeaderValue>, name: string): string {
  const value = headers.get(name);
  if (value == null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && 'value' in (value as object)) return String((value as { value: unknown }).value ?? '');
  return String(value);
}

/**
 * Auto-replies (RFC 3834 Auto-Submitted other than 'no', X-Autoreply/X-Autorespond,
 * Precedence auto_reply/bulk/junk) and bounces (multipart/report delivery-status, a mailer
 * daemon sender, X-Failed-Recipients). Either is shown marked and never answered automatically.
 */
function autoKind(headers: Map<string, HeaderValue>, from: MailAddress | null): MailAutoKind | null {
  const contentType = headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  const reportType = contentType?.params?.['report-type']?.toLowerCase();
  if (contentType?.value?.toLowerCase() === 'multipart/report' && (reportType === 'delivery-status' || reportType === 'disposition-notification')) return 'bounce';
  if (headers.has('x-failed-recipients')) return 'bounce';
  if (from && /^(mailer-daemon|postmaster)@/i.test(from.address)) return 'bounce';
  const submitted = headerText(headers, 'auto-submitted').trim().toLowerCase();
  if (submitted && submitted !== 'no') return 'auto-reply';
  if (headers.has('x-autoreply') || headers.has('x-autorespond') || headers.has('x-autoresponse')) return 'auto-reply';
  const precedence = headerText(headers, 'precedence').trim().toLowerCase();
  if (['auto_reply', 'bulk', 'junk', 'list'].includes(precedence)) return 'auto-reply';
  return null;
}

/** Parses one raw message (see the header). */
export async function parseMail(raw: Buffer): Promise<ParsedMail> {
  const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextLinks: true, skipTextToHtml: true });
  const headers = parsed.headers as Map<string, HeaderValue>;
  const [ownId] = messageIds(parsed.messageId);
  const hashedId = !ownId;
  const messageId = ownId ?? `hash:${createHash('sha256').update(raw).digest('hex')}`;
  const from = addresses(parsed.from)[0] ?? null;
  const html = typeof parsed.html === 'string' && parsed.html.trim() ? parsed.html : null;
  const cidsInHtml = new Set(html ? [...html.matchAll(/cid:([^"'\s>)]+)/gi)].map((m) => m[1]!.replace(/^<|>$/g, '')) : []);
  const attachments: ParsedAttachment[] = parsed.attachments.map((a, i) => {
    const contentId = a.contentId ? a.contentId.replace(/^<|>$/g, '') : (a.cid ?? null);
    const mimeType = (a.contentType || 'application/octet-stream').toLowerCase();
    return {
      fileName: (a.filename || `anexo-${i + 1}${extensionOf(mimeType)}`).slice(0, 200),
      mimeType,
      bytes: a.content,
      contentId,
      inline: Boolean(contentId && cidsInHtml.has(contentId)),
    };
  });
  const date = parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.toISOString() : null;
  return {
    messageId,
    hashedId,
    inReplyTo: messageIds(parsed.inReplyTo)[0] ?? null,
    references: messageIds(parsed.references),
    subject: (parsed.subject ?? '').replace(/\s+/g, ' ').trim().slice(0, 998),
    from,
    replyTo: addresses(parsed.replyTo)[0] ?? null,
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    date,
    text: (parsed.text ?? '').trim(),
    unsafeHtml: html,
    attachments,
    auto: autoKind(headers, from),
  };
}

function extensionOf(mimeType: string): string {
  const map: Record<string, string> = { 'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif', 'application/pdf': '.pdf', 'text/plain': '.txt', 'message/rfc822': '.eml', 'message/delivery-status': '.txt' };
  return map[mimeType] ?? '';
}

/**
 * The subject without reply/forward prefixes (Re:, Fwd:, RES:, ENC:, AW:, WG:, [n]...), lower
 * case: the key of the fallback threading rule (docs/email.md "Threading").
 */
export function threadSubject(subject: string): string {
  let s = subject.trim().toLowerCase();
  for (;;) {
    const next = s.replace(/^((re|res|fw|fwd|enc|aw|wg|tr|rif|sv|vs)(\[\d+\])?\s*:\s*)/i, '').trim();
    if (next === s) break;
    s = next;
  }
  return s.replace(/\s+/g, ' ');
}
