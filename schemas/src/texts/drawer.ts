export const drawer = {
  logout: 'Sair',
  enableNotifications: 'Ativar Notificações',
  onlineAgents: 'Agentes Online',
  followMe: 'Siga-me',
  news: 'Novidades',
  notificationsOn: 'Noficações ativas',
  notificationsError:
    'Erro ao ativar notificações, verifique as configurações do seu navegador',
} as const;
