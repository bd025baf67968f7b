import { compareTemplates, type TemplateSendInput, type WhatsappTemplate } from '@atendimento/schemas/chat/whatsapp';

/**
 * The template dialog's rules (seed 001 §5 "Templates offered"): only approved templates in
 * pt_BR or pt_PT; names nps, nps2, encerrarchat, encerramento, encerrar, encerrar_2, encerrar2,
 * inatividade and the tenant's hidden templates are left out; so are templates whose text
 * would contain 'undefined' and, with claim disableTemplatesWithImages, image/video headers.
 */
const EXCLUDED_TEMPLATE_NAMES = ['nps', 'nps2', 'encerrarchat', 'encerramento', 'encerrar', 'encerrar_2', 'encerrar2', 'inatividade'];
const TEMPLATE_LANGUAGES = ['pt_BR', 'pt_PT'];
/** Header files the dialog accepts (seed 001 §5). */
export const TEMPLATE_HEADER_ACCEPT = '.png,.jpg,.jpeg,.pdf';

interface Component {
  type?: string;
  format?: string;
  text?: string;
}

const componentsOf = (t: Pick<WhatsappTemplate, 'components'>): Component[] => (Array.isArray(t.components) ? (t.components as Component[]) : []);
const part = (t: Pick<WhatsappTemplate, 'components'>, type: string) => componentsOf(t).find((c) => String(c.type).toUpperCase() === type);

export function templateBody(t: Pick<WhatsappTemplate, 'components'>): string {
  return part(t, 'BODY')?.text ?? '';
}

/** Media header format (IMAGE, VIDEO, DOCUMENT) or null. */
export function headerMedia(t: Pick<WhatsappTemplate, 'components'>): 'IMAGE' | 'VIDEO' | 'DOCUMENT' | null {
  const format = String(part(t, 'HEADER')?.format ?? '').toUpperCase();
  return format === 'IMAGE' || format === 'VIDEO' || format === 'DOCUMENT' ? format : null;
}

export function offeredTemplates(list: WhatsappTemplate[], options: { hidden?: string[]; disableWithImages?: boolean } = {}): WhatsappTemplate[] {
  const hidden = new Set([...EXCLUDED_TEMPLATE_NAMES, ...(options.hidden ?? [])].map((n) => n.toLowerCase()));
  return list.filter((t) => {
    if (String(t.status).toUpperCase() !== 'APPROVED') return false;
    if (!TEMPLATE_LANGUAGES.includes(t.language)) return false;
    if (hidden.has(t.name.toLowerCase())) return false;
    if (componentsOf(t).some((c) => typeof c.text === 'string' && c.text.includes('undefined'))) return false;
    const media = headerMedia(t);
    if (options.disableWithImages && (media === 'IMAGE' || media === 'VIDEO')) return false;
    return true;
  }).sort(compareTemplates);
}

/** One parameter the agent fills: `{{n}}` of the header text or body, or the header file. */
export interface TemplateParam {
  key: string;
  part: 'header' | 'body' | 'headerMedia';
  index: number;
}

const placeholders = (text: string | undefined): number[] => [...new Set([...(text ?? '').matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);

export function templateParams(t: Pick<WhatsappTemplate, 'components'>): TemplateParam[] {
  const out: TemplateParam[] = [];
  if (headerMedia(t)) out.push({ key: 'headerMedia', part: 'headerMedia', index: 0 });
  else for (const n of placeholders(part(t, 'HEADER')?.text)) out.push({ key: `header.${n}`, part: 'header', index: n });
  for (const n of placeholders(part(t, 'BODY')?.text)) out.push({ key: `body.${n}`, part: 'body', index: n });
  return out;
}

const fill = (text: string, values: Record<string, string>, prefix: string) => text.replace(/\{\{(\d+)\}\}/g, (m, n: string) => values[`${prefix}.${n}`] ?? m);

/**
 * What is sent: Cloud API components with the parameters in order, and the body text with
 * them filled in (stored as the message text). `values.headerMedia` is the uploaded file's URL.
 */
export function buildTemplateSend(t: WhatsappTemplate, values: Record<string, string>): TemplateSendInput {
  const components: unknown[] = [];
  const media = headerMedia(t);
  if (media && values.headerMedia) {
    const kind = media.toLowerCase();
    components.push({ type: 'header', parameters: [{ type: kind, [kind]: { link: values.headerMedia } }] });
  } else {
    const header = placeholders(part(t, 'HEADER')?.text);
    if (header.length) components.push({ type: 'header', parameters: header.map((n) => ({ type: 'text', text: values[`header.${n}`] ?? '' })) });
  }
  const body = placeholders(templateBody(t));
  if (body.length) components.push({ type: 'body', parameters: body.map((n) => ({ type: 'text', text: values[`body.${n}`] ?? '' })) });
  const text = fill(templateBody(t), values, 'body');
  return { name: t.name, language: t.language, ...(components.length && { components }), ...(text && { text }) };
}
