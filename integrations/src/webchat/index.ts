import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { MESSAGE_MAX_LENGTH, UPLOAD_LIMITS, messages } from '@atendimento/schemas';

/**
 * The web-chat widget (docs/chat.md "Web chat"): an embed script a site adds, and the hosted
 * page it opens in an iframe. Both are plain DOM scripts served by our server (no build step,
 * no framework); the server passes in the channel's settings. Texts come from
 * schemas/src/messages.ts so the widget speaks the same pt-BR as the console.
 */

// Found through the package, not this module's URL: the built server (scripts/build-server.mjs) bundles this file elsewhere.
const folder = path.join(path.dirname(createRequire(import.meta.url).resolve('@atendimento/integrations')), 'webchat');
const read = (name: string) => readFileSync(path.join(folder, name), 'utf8');
const LOADER = read('./webchat-loader.js');
const PAGE_SCRIPT = read('./webchat-page.js');
const PAGE_CSS = read('./webchat-page.css');

/** What the widget shows for a channel (WebchatSessionAnswer['data']['channel']). */
interface WebchatChannelView {
  id: string;
  title: string;
  welcome: string;
  color: string;
}

/** Escapes text for an HTML attribute or element (the only way values enter the page). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON safe inside a script (no '</script>', no line separators). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** A colour we can put in CSS and attributes as is; anything else falls back. */
function safeColor(color: string, fallback = '#1976D2'): string {
  return /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : fallback;
}

const T = messages.webchat;

/**
 * The texts the page script (webchat-page.js) reads from `data-texts`, and only those: the
 * rest of the widget's texts are written into the HTML here. Its notices: a session the
 * server refused (socket closed 4401/4403/4404, or a renewal that failed), a dropped socket
 * while it reconnects, a channel that is gone when the page starts.
 */
function pageTexts() {
  return {
    attach: T.attach,
    sending: T.sending,
    sent: T.sent,
    delivered: T.delivered,
    read: T.read,
    failed: T.failed,
    invalidSession: T.invalidSession,
    connectionLost: T.connectionLost,
    channelUnavailable: T.channelUnavailable,
    deleted: messages.chat.messageDeleted,
    tooLong: messages.chat.messageTooLong,
    uploadImage5: messages.chat.uploadImage5,
    uploadMedia16: messages.chat.uploadMedia16,
    uploadAny100: messages.chat.uploadAny100,
  };
}

/** The embed script for one channel: `<script src=".../api/webchat/{channelId}/widget.js" async>`. */
export function webchatLoaderScript(channel: WebchatChannelView): string {
  const cfg = { title: channel.title, color: safeColor(channel.color), openLabel: T.open, closeLabel: T.close };
  return `${LOADER.trimEnd()}(${scriptJson(cfg)});\n`;
}

/** The hosted page (framed by the loader, or opened directly). Values only enter as escaped attributes. */
export function webchatPageHtml(channel: WebchatChannelView, assetBase: string): string {
  const attr = (value: string) => escapeHtml(value);
  const limits = { ...UPLOAD_LIMITS, text: MESSAGE_MAX_LENGTH };
  return `<!doctype html>
<html lang="pt-BR" style="--accent: ${safeColor(channel.color)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${attr(channel.title)}</title>
<link rel="stylesheet" href="${attr(assetBase)}page.css">
<script src="${attr(assetBase)}page.js" defer></script>
</head>
<body data-channel="${attr(channel.id)}" data-texts="${attr(JSON.stringify(pageTexts()))}" data-limits="${attr(JSON.stringify(limits))}">
<header><strong id="title">${attr(channel.title)}</strong></header>
<p id="welcome" class="welcome">${attr(channel.welcome)}</p>
<ul id="messages" aria-live="polite"></ul>
<p id="status" class="status" hidden></p>
<form id="start" hidden>
  <input id="name" maxlength="200" placeholder="${attr(T.namePlaceholder)}" aria-label="${attr(T.namePlaceholder)}">
  <input id="email" type="email" maxlength="320" placeholder="${attr(T.emailPlaceholder)}" aria-label="${attr(T.emailPlaceholder)}">
  <textarea id="first" maxlength="${MESSAGE_MAX_LENGTH}" required placeholder="${attr(T.messagePlaceholder)}" aria-label="${attr(T.messagePlaceholder)}"></textarea>
  <button id="start-send" type="submit">${attr(T.start)}</button>
</form>
<form id="composer" hidden>
  <label class="attach" title="${attr(T.attach)}"><input id="file" type="file" hidden><svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M16.5 6v11.5a4 4 0 0 1-8 0V5a2.5 2.5 0 0 1 5 0v10.5a1 1 0 0 1-2 0V6H10v9.5a2.5 2.5 0 0 0 5 0V5a4 4 0 0 0-8 0v12.5a5.5 5.5 0 0 0 11 0V6h-1.5z"/></svg><span class="sr">${attr(T.attach)}</span></label>
  <textarea id="text" rows="1" maxlength="${MESSAGE_MAX_LENGTH}" placeholder="${attr(T.messagePlaceholder)}" aria-label="${attr(T.messagePlaceholder)}"></textarea>
  <button type="submit">${attr(T.send)}</button>
</form>
<div id="closed" class="closed" hidden><span>${attr(T.closed)}</span> <button id="restart" type="button">${attr(T.restart)}</button></div>
</body>
</html>
`;
}

/** The page's script and style (the same for every channel; cacheable). */
export const webchatAssets = {
  'page.js': { type: 'application/javascript; charset=utf-8', body: PAGE_SCRIPT },
  'page.css': { type: 'text/css; charset=utf-8', body: PAGE_CSS },
} as const;
