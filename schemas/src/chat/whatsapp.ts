import { MESSAGE_MAX_LENGTH } from './api';

/**
 * Contract of the WhatsApp outbound calls (docs/whatsapp.md): active message,
 * templates list and interactive sends. Imported by path (`@atendimento/schemas/chat/whatsapp`)
 * so the sign-in bundle never carries it.
 */

/** A template as sent: Cloud API name, language code and parameter components; `text` is the rendered body we store. */
export interface TemplateSendInput {
  name: string;
  language: string;
  components?: unknown[];
  text?: string;
}

/**
 * POST /api/rooms/activeMessage ('Mensagem Ativa', claim allowActiveMessage): opens (or
 * reopens) the contact's chat on a WhatsApp channel, attended by the caller, and sends
 * `text` (inside the 24-hour window) or `template` (always allowed).
 */
export interface ActiveMessageInput {
  contactId: string;
  channelId: string;
  /** Required when the caller belongs to departments ('Selecione um departamento...'). */
  departmentId?: string;
  text?: string;
  template?: TemplateSendInput;
  clientId?: string;
}

/** GET /api/rooms/activeMessage/options?contactId=: what the dialog offers. */
export interface ActiveMessageOptions {
  channels: { id: string; displayName: string; phoneNumber: string | null; type: string; windowOpen: boolean; templates: boolean }[];
  departments: { id: string; displayName: string }[];
}

/** One stored template (GET /api/templates), seed 001 §3 "Template message set". */
export interface WhatsappTemplate {
  id: string;
  name: string;
  elementName: string;
  language: string;
  status: string;
  category: string;
  origin: string;
  components: unknown[];
  namespace?: string;
}

export interface TemplateSet {
  channels: string[];
  origin: string;
  templates: WhatsappTemplate[];
}

export interface TemplatesAnswer {
  /** count: templates matching (all pages); next: offset of the next page or null. */
  meta: { count: number; limit: number; offset: number; next: number | null };
  data: TemplateSet[];
}

export const TEMPLATES_PAGE_MAX = 500;

/** Cloud API interactive message (buttons or list) as sent and stored in `message.interactive`. */
export interface InteractiveButtons {
  type: 'button';
  header?: { type: 'text'; text: string };
  body: { text: string };
  footer?: { text: string };
  action: { buttons: { type: 'reply'; reply: { id: string; title: string } }[] };
}
export interface InteractiveList {
  type: 'list';
  header?: { type: 'text'; text: string };
  body: { text: string };
  footer?: { text: string };
  action: { button: string; sections: { title?: string; rows: { id: string; title: string; description?: string }[] }[] };
}
export type InteractiveSend = InteractiveButtons | InteractiveList;

/** POST /api/rooms/:id/message/interactive. */
export interface SendInteractiveInput {
  interactive: InteractiveSend;
  clientId?: string;
}

/** WhatsApp's limits on interactive messages (Cloud API reference). */
export const INTERACTIVE_LIMITS = { buttons: 3, buttonTitle: 20, body: 1024, header: 60, footer: 60, listButton: 20, sections: 10, rows: 10, rowTitle: 24, rowDescription: 72, id: 200 } as const;

const L = INTERACTIVE_LIMITS;
const str = (max: number, min = 1) => ({ type: 'string', minLength: min, maxLength: max, pattern: '\\S' }) as const;
const header = { type: 'object', additionalProperties: false, required: ['type', 'text'], properties: { type: { const: 'text' }, text: str(L.header) } } as const;
const bodyText = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: str(L.body) } } as const;
const footer = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: str(L.footer) } } as const;

const template = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'language'],
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9_]{1,512}$' },
    language: { type: 'string', pattern: '^[A-Za-z_]{2,15}$' },
    components: { type: 'array', maxItems: 20 },
    text: { type: 'string', maxLength: 4096 },
  },
} as const;

/** JSON Schemas of the bodies above (server validation; the console forms follow them). */
export const whatsappSchemas = {
  activeMessage: {
    type: 'object',
    additionalProperties: false,
    required: ['contactId', 'channelId'],
    properties: {
      contactId: { type: 'string', minLength: 1, maxLength: 64 },
      channelId: { type: 'string', minLength: 1, maxLength: 64 },
      departmentId: { type: 'string', minLength: 1, maxLength: 64 },
      text: { type: 'string', minLength: 1, maxLength: MESSAGE_MAX_LENGTH, pattern: '\\S' },
      template,
      clientId: { type: 'string', minLength: 1, maxLength: 100 },
    },
  },
  interactive: {
    type: 'object',
    additionalProperties: false,
    required: ['interactive'],
    properties: {
      clientId: { type: 'string', minLength: 1, maxLength: 100 },
      interactive: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'body', 'action'],
            properties: {
              type: { const: 'button' },
              header,
              body: bodyText,
              footer,
              action: {
                type: 'object',
                additionalProperties: false,
                required: ['buttons'],
                properties: {
                  buttons: {
                    type: 'array', minItems: 1, maxItems: L.buttons,
                    items: { type: 'object', additionalProperties: false, required: ['type', 'reply'], properties: { type: { const: 'reply' }, reply: { type: 'object', additionalProperties: false, required: ['id', 'title'], properties: { id: str(L.id), title: str(L.buttonTitle) } } } },
                  },
                },
              },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'body', 'action'],
            properties: {
              type: { const: 'list' },
              header,
              body: bodyText,
              footer,
              action: {
                type: 'object',
                additionalProperties: false,
                required: ['button', 'sections'],
                properties: {
                  button: str(L.listButton),
                  sections: {
                    type: 'array', minItems: 1, maxItems: L.sections,
                    items: {
                      type: 'object', additionalProperties: false, required: ['rows'],
                      properties: {
                        title: str(L.rowTitle),
                        rows: { type: 'array', minItems: 1, maxItems: L.rows, items: { type: 'object', additionalProperties: false, required: ['id', 'title'], properties: { id: str(L.id), title: str(L.rowTitle), description: { type: 'string', maxLength: L.rowDescription } } } },
                      },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    },
  },
} as const;

/** Templates as a person reads their names: aviso_2 before aviso_10, then by language (campaign form and console dialog). */
export function compareTemplates(a: { name: string; language: string }, b: { name: string; language: string }): number {
  return a.name.localeCompare(b.name, 'pt-BR', { numeric: true }) || a.language.localeCompare(b.language);
}
