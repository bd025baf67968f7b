export const presence = {
  loginPrompt:
    'Você está entrando no sistema com o status {status}. Gostaria de atualizar seu status para ONLINE?',
  /** Under every status but online in the status menu (docs/routing.md "Offline / away return"). */
  awayReturnsChats: 'Chats distribuídos a você e ainda sem resposta voltam para a fila.',
  followMeOn: 'Siga-me Ativado',
  followMeOff: 'Siga-me Desativado',
} as const;
