/** LGPD data rights (docs/lgpd.md): export and erase of a contact. */
export const lgpd = {
  contactNotFound: 'Contato não encontrado.',
  eraseConfirmText: 'APAGAR',
  eraseConfirmRequired: 'Confirme a exclusão: envie o código de confirmação recebido e digite APAGAR. A exclusão é irreversível.',
  eraseConfirmInvalid: 'Código de confirmação inválido ou expirado. Peça a exclusão de novo.',
  // The contacts list's 'Dados pessoais (LGPD)' dialog (admins only).
  action: 'Dados pessoais (LGPD)',
  title: 'Dados pessoais de {name} (LGPD)',
  intro: 'Exporte tudo o que a empresa guarda sobre o contato, ou apague os dados pessoais dele a pedido do titular.',
  exportButton: 'Exportar dados (.zip)',
  exported: 'Arquivo com os dados do contato gerado.',
  eraseButton: 'Apagar dados pessoais',
  eraseWarning: '{chats} atendimento(s) e {messages} mensagem(ns) de {name} serão anonimizados, os arquivos apagados e o cadastro removido. Os números do dashboard continuam. Esta ação é irreversível.',
  eraseTypeLabel: 'Digite APAGAR para confirmar',
  eraseConfirmButton: 'Apagar definitivamente',
  erased: 'Dados pessoais do contato apagados.',
  close: 'Fechar',
} as const;
