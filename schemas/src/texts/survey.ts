/**
 * Routing and the contact-center clock (docs/routing.md): the system notes every automatic
 * action leaves in the chat (who, what, why), the claim refusals, and the justifications of
 * automatic closes. The seed does not quote these; they follow its voice.
 */
/** NPS/CSAT surveys (docs/console-operations.md): texts the seed does not quote, worded like its own. */
export const survey = {
  npsQuestion: 'Em uma escala de {min} a {max}, o quanto você recomendaria nosso atendimento a um amigo? Responda com um número (e, se quiser, um comentário).',
  csatQuestion: 'Como você avalia este atendimento, de {min} a {max}? Responda com um número (e, se quiser, um comentário).',
  reask: 'Não entendi sua resposta. Por favor, responda apenas com um número de {min} a {max}.',
  thanks: 'Obrigado pela sua avaliação!',
  giveUp: 'Tudo bem, não vamos insistir. Obrigado pelo contato!',
  disabled: 'Pesquisa de satisfação desabilitada. Contacte o administrador.',
  closeNps: 'Encerrar com pesquisa NPS',
  closeCsat: 'Encerrar com pesquisa CSAT',
  titleNps: 'Encerrar com pesquisa NPS',
  titleCsat: 'Encerrar com pesquisa CSAT',
  answeredNote: 'Pesquisa {method} respondida.',
  expiredNote: 'Pesquisa {method} sem resposta: expirou.',
  gaveUpNote: 'Pesquisa {method} sem resposta válida.',
  nps: 'NPS',
  csat: 'CSAT',
  answeredAt: 'Respondida em {date}',
  /** The WhatsApp list of scores (Cloud API limits: button 20, section title 24 characters). */
  listButton: 'Escolher nota',
  listSection: 'Notas',
  csatLabels: ['Muito insatisfeito', 'Insatisfeito', 'Indiferente', 'Satisfeito', 'Muito satisfeito'],
} as const;
