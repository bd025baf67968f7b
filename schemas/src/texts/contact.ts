export const contact = {
  updated: 'Contato atualizado com sucesso',
  updateFailed: 'Erro ao atualizar contato',
  blocked: 'Contato Bloqueado',
  noClient: 'Sem cliente vinculado',
  noSalesman: 'Sem Representante vinculado',
  noClientCgc: 'Sem cliente vinculado a CPF/CNPJ',
  clientCgc: 'Cliente vinculado a CPF/CNPJ',
  linkClientForQuote: 'Associe o Contato a um cliente para fazer um orçamento',
  quotes: 'Orçamentos',
  quotesNotConfigured: 'O portal de orçamentos não está configurado (Configurações › ERP).',
  integrations: 'Integrações',
  /** A report integration's button in the contact drawer (seed 001). */
  report: 'Rel. {title}',
} as const;
