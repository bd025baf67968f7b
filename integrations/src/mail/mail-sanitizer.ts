import sanitizeHtml from 'sanitize-html';

/**
 * E-mail HTML made safe to show inside the console's message box (docs/email.md "What is
 * sanitised"):
 * - only formatting tags survive; script, style, iframe, object, forms, svg, meta and base go,
 *   with the content of script/style/head/title;
 * - no event handlers, no classes or ids (they could hook the console's own CSS), and inline
 *   style only for colours, text and spacing properties whose values carry no url(), no
 *   expression() and no positioning (nothing can leave the box or cover the console);
 * - links keep http(s) and mailto only and open in a new tab without a referrer;
 * - images load only from our blob store (inline cid: parts, resolved by the caller) or data:
 *   images; remote images are dropped unless `allowRemote` (the agent's click), so opening a
 *   mail tells no tracker it was read.
 */

const TAGS = [
  'a', 'abbr', 'address', 'b', 'big', 'blockquote', 'br', 'caption', 'center', 'cite', 'code', 'col', 'colgroup', 'dd', 'del', 'div', 'dl', 'dt',
  'em', 'font', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'pre', 'q', 's', 'small', 'span',
  'strike', 'strong', 'sub', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'tt', 'u', 'ul',
];

const LENGTH = /^-?\d{1,4}(\.\d{1,3})?(px|pt|em|rem|%)?$/;
const LENGTHS = /^(-?\d{1,4}(\.\d{1,3})?(px|pt|em|rem|%)?|auto)( (-?\d{1,4}(\.\d{1,3})?(px|pt|em|rem|%)?|auto)){0,3}$/;
const COLOR = /^(#[0-9a-f]{3,8}|[a-z]{3,20}|rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(,\s*[\d.]{1,4}\s*)?\))$/i;
const BORDER = /^(\d{1,2}(px|pt)?\s+)?(none|solid|dashed|dotted|double)?(\s+(#[0-9a-f]{3,8}|[a-z]{3,20}))?$/i;
const NON_NEGATIVE = /^\d{1,4}(\.\d{1,3})?(px|pt|em|rem|%)?$/;

/** Inline style properties kept, each with the values it may take (sanitize-html drops the rest). */
const STYLES: Record<string, RegExp[]> = {
  color: [COLOR],
  'background-color': [COLOR],
  'font-weight': [/^(normal|bold|bolder|lighter|\d{3})$/],
  'font-style': [/^(normal|italic|oblique)$/],
  'font-size': [NON_NEGATIVE, /^(xx-small|x-small|small|medium|large|x-large|xx-large|smaller|larger)$/],
  'font-family': [/^[\w\s,'"-]{1,200}$/],
  'text-decoration': [/^(none|underline|line-through|overline)( [\w#]+)*$/],
  'text-align': [/^(left|right|center|justify|start|end)$/],
  'vertical-align': [/^(top|middle|bottom|baseline)$/],
  'line-height': [NON_NEGATIVE, /^normal$/],
  'white-space': [/^(normal|pre|pre-wrap|pre-line|nowrap)$/],
  // Spacing only inward or within the box: negative margins could pull text over the console.
  padding: [LENGTHS],
  'padding-left': [LENGTH], 'padding-right': [LENGTH], 'padding-top': [LENGTH], 'padding-bottom': [LENGTH],
  margin: [/^(\d{1,4}(\.\d{1,3})?(px|pt|em|rem|%)?|auto)( (\d{1,4}(\.\d{1,3})?(px|pt|em|rem|%)?|auto)){0,3}$/],
  'margin-left': [NON_NEGATIVE], 'margin-right': [NON_NEGATIVE], 'margin-top': [NON_NEGATIVE], 'margin-bottom': [NON_NEGATIVE],
  border: [BORDER], 'border-top': [BORDER], 'border-bottom': [BORDER], 'border-left': [BORDER], 'border-right': [BORDER],
  'border-collapse': [/^(collapse|separate)$/],
  width: [NON_NEGATIVE, /^auto$/], 'max-width': [NON_NEGATIVE], height: [NON_NEGATIVE, /^auto$/],
};

/** Our own URLs an image may load from: stored blobs of this product. */
const OWN_IMAGE = /^\/api\/files\/[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{16,64}\.[a-z0-9]{1,8}$/;
const DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp);base64,[A-Za-z0-9+/=\s]+$/i;
const REMOTE = /^https?:\/\//i;

export interface SanitizeOptions {
  /** cid (without angle brackets) → our blob URL, for inline images. */
  cidUrls?: Record<string, string>;
  /** Keep remote (http/https) images: only after the agent asked for them. */
  allowRemote?: boolean;
}

export interface SanitizedHtml {
  html: string;
  /** At least one remote image was dropped. */
  remoteBlocked: boolean;
}

/** Sanitises one mail's HTML for display (see the header for the rules). */
export function sanitizeMailHtml(html: string, options: SanitizeOptions = {}): SanitizedHtml {
  let remoteBlocked = false;
  const cids = options.cidUrls ?? {};
  const out = sanitizeHtml(html, {
    allowedTags: TAGS,
    allowedAttributes: {
      a: ['href', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      td: ['colspan', 'rowspan', 'align', 'valign', 'width', 'height', 'bgcolor'],
      th: ['colspan', 'rowspan', 'align', 'valign', 'width', 'height', 'bgcolor'],
      table: ['width', 'border', 'cellpadding', 'cellspacing', 'align', 'bgcolor'],
      col: ['span', 'width'],
      colgroup: ['span', 'width'],
      font: ['color', 'size', 'face'],
      ol: ['start', 'type'],
      '*': ['style', 'dir', 'lang', 'align'],
    },
    allowedStyles: { '*': STYLES },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['data', 'http', 'https'] },
    allowedSchemesAppliedToAttributes: ['href', 'src'],
    allowProtocolRelative: false,
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'head', 'template', 'svg', 'math', 'xml'],
    disallowedTagsMode: 'discard',
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' } }),
      img: (tagName, attribs) => {
        const src = (attribs.src ?? '').trim();
        const next = { ...attribs };
        if (/^cid:/i.test(src)) {
          const url = cids[src.slice(4).replace(/^<|>$/g, '')];
          if (url) next.src = url;
          else delete next.src;
        } else if (REMOTE.test(src)) {
          if (!options.allowRemote) {
            remoteBlocked = true;
            delete next.src;
          }
        } else if (!OWN_IMAGE.test(src) && !DATA_IMAGE.test(src)) {
          delete next.src;
        }
        return { tagName, attribs: next };
      },
    },
    // An image without a source left is dropped (a tracking pixel leaves nothing behind).
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  });
  return { html: out, remoteBlocked };
}

/** Plain text of some HTML (the last-message preview, a reply's text version). */
export function htmlToPlainText(html: string): string {
  const withBreaks = html
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote|pre|tr)>/gi, '\n');
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {}, nonTextTags: ['script', 'style', 'title', 'head'] });
  return decodeEntities(text).replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}
