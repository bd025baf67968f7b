import { Fragment, type ReactNode } from 'react';
import { LIMITS } from './constants';
import { truncate } from './format';

const LINK = /(https?:\/\/[^\s<>"]+|www\.[^\s<>"]+)/gi;

/**
 * Message text as React nodes, never as HTML (visitor and contact text is untrusted): links
 * become anchors whose label is cut at 80 characters, and *asterisk pairs* render bold.
 */
export function RichText({ text }: { text: string }) {
  const lines = text.split('\n');
  return (
    <>
      {lines.map((line, i) => (
        <Fragment key={i}>
          {i > 0 && <br />}
          {renderLine(line)}
        </Fragment>
      ))}
    </>
  );
}

function renderLine(line: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of line.matchAll(LINK)) {
    const start = match.index ?? 0;
    if (start > last) out.push(...renderBold(line.slice(last, start), out.length));
    const url = match[0];
    const href = url.startsWith('http') ? url : `https://${url}`;
    out.push(
      <a key={`l${out.length}`} href={safeHref(href)} target="_blank" rel="noopener noreferrer" title={url}>
        {truncate(url, LIMITS.linkDisplay)}
      </a>,
    );
    last = start + url.length;
  }
  if (last < line.length) out.push(...renderBold(line.slice(last), out.length));
  return out;
}

function renderBold(text: string, keyBase: number): ReactNode[] {
  const parts = text.split(/(\*[^*\n]+\*)/g);
  return parts
    .filter((p) => p !== '')
    .map((p, i) =>
      p.length > 2 && p.startsWith('*') && p.endsWith('*') ? <strong key={`b${keyBase}-${i}`}>{p.slice(1, -1)}</strong> : <Fragment key={`t${keyBase}-${i}`}>{p}</Fragment>,
    );
}

/** Only http(s) links are followed; anything else (javascript:, data:) is neutralised. */
export function safeHref(href: string | null | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, 'https://invalid.local');
    return url.protocol === 'http:' || url.protocol === 'https:' ? href : undefined;
  } catch {
    return undefined;
  }
}

/** Media sources: http(s), same-origin paths, local blobs (previews) and inline images. */
export function safeMediaSrc(src: string | null | undefined): string | undefined {
  if (!src) return undefined;
  if (src.startsWith('blob:') || /^data:(image|audio|video)\//.test(src)) return src;
  return safeHref(src);
}
