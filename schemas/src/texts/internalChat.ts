export const internalChat = {
  groupName: 'Nome do grupo',
  newChat: 'Novo chat interno',
  start: 'Conversar',
  addAgents: 'Adicionar agentes',
  leave: 'Sair do grupo',
  participants: 'Participantes',
  notMember: 'Você não participa deste chat.',
  notInternal: 'Este chat não é um chat interno.',
  audioNotAllowed: 'Áudio não é aceito em chats internos.',
} as const;
