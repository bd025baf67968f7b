/** WhatsApp-type channels (docs/whatsapp.md): answers the seed does not quote, worded like its own. */
export const whatsapp = {
  channelNotFound: 'Canal não encontrado.',
  invalidSignature: 'Assinatura do webhook inválida.',
  missingSignature: 'Webhook sem assinatura.',
  invalidBody: 'Corpo do webhook inválido.',
  ingestFailed: 'Falha temporária ao registrar a mensagem. Tente novamente.',
  nothingToReload: 'Esta mensagem não tem mídia para recarregar.',
  mediaFetchFailed: 'Falha ao baixar a mídia do provedor. Tente novamente.',
  statusRetry: 'Status recebido antes da confirmação do envio; reenvie em instantes.',
  windowClosed: 'Fora da janela de 24 horas: o contato não responde há mais de 24 horas. Envie um template para retomar a conversa.',
  templatesUnsupported: 'Templates não são suportados neste canal',
  activeMessageForbidden: 'Você não tem permissão para enviar mensagens ativas.',
  activeMessageContent: 'Escreva a mensagem ou escolha um template.',
  interactiveInvalid: 'Mensagem interativa inválida: confira os botões e as opções.',
  interactiveTooManyRows: 'Uma lista aceita no máximo 10 opções no total.',
  interactiveChannel: 'Mensagens interativas só podem ser enviadas em canais WhatsApp.',
} as const;
