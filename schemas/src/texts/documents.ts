export const documents = {
  generating: 'Aguarde! Gerando documento...',
  failed: 'Falha ao gerar o documento',
  requestError: 'Erro na requisição',
} as const;
