import type { ActiveMessageOptions, TemplatesAnswer, WhatsappTemplate } from '@atendimento/schemas/chat/whatsapp';

/** Templates of the stories: two offered, the rest left out by the seed's rules. */
const tpl = (name: string, over: Partial<WhatsappTemplate> = {}): WhatsappTemplate => ({
  id: `t-${name}`, name, elementName: name, language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', origin: 'meta',
  components: [{ type: 'BODY', text: `Texto de ${name}.` }], ...over,
});

export const storyTemplates: WhatsappTemplate[] = [
  tpl('boas_vindas', { components: [{ type: 'HEADER', format: 'TEXT', text: 'Olá {{1}}' }, { type: 'BODY', text: 'Olá {{1}}, aqui é {{2}} da Acme. Podemos continuar?' }, { type: 'FOOTER', text: 'Acme' }] }),
  tpl('promocao_imagem', { category: 'MARKETING', components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Confira nossa promoção!' }] }),
  tpl('aviso_portugal', { language: 'pt_PT' }),
  tpl('nps'),
  tpl('encerramento'),
  tpl('rejeitado', { status: 'REJECTED' }),
  tpl('welcome', { language: 'en_US' }),
  tpl('quebrado', { components: [{ type: 'BODY', text: 'Olá undefined' }] }),
];

export const templatesAnswer = (channelId = 'wa-meta'): TemplatesAnswer => ({
  meta: { count: storyTemplates.length, limit: 500, offset: 0, next: null },
  data: [{ channels: [channelId], origin: 'meta', templates: storyTemplates }],
});

export const optionsMany: ActiveMessageOptions = {
  channels: [
    { id: 'wa-meta', displayName: 'WhatsApp Comercial', phoneNumber: '5511999990000', type: 'meta', windowOpen: true, templates: true },
    { id: 'wa-zapi', displayName: 'WhatsApp Suporte', phoneNumber: '5511888880000', type: 'zApi', windowOpen: true, templates: false },
  ],
  departments: [{ id: 'vendas', displayName: 'Vendas' }, { id: 'suporte', displayName: 'Suporte' }],
};

export const optionsSingleClosed: ActiveMessageOptions = {
  channels: [{ id: 'wa-meta', displayName: 'WhatsApp Comercial', phoneNumber: '5511999990000', type: 'meta', windowOpen: false, templates: true }],
  departments: [],
};
