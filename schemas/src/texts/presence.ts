export const presence = {
  loginPrompt:
    'Você está entrando no sistema com o status {status}. Gostaria de atualizar seu status para ONLINE?',
  followMeOn: 'Siga-me Ativado',
  followMeOff: 'Siga-me Desativado',
} as const;
