/** Flow runs reported by bots (docs/flows.md). */
export const flows = {
  roomNotFound: 'Chat não encontrado neste tenant: confira o roomId enviado pelo bot.',
  flowNotFound: 'Fluxo não encontrado: use o id de um fluxo do cadastro Fluxos.',
  runMismatch: 'Esta execução (runId) já foi registrada para outro chat ou fluxo: use um runId novo para cada execução.',
} as const;
