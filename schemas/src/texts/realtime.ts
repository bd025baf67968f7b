/** The app shell (engine): sign-in screens, drawer, status bar, profile. Texts the seeds do not quote. */
/** Realtime hub (/ws) close reasons and subscription errors; presence status validation. */
export const realtime = {
  authTimeout: 'Tempo para autenticação esgotado.',
  protocolError: 'Mensagem inválida no canal em tempo real.',
  anotherUser: 'O novo token pertence a outro usuário.',
  slowConsumer: 'Conexão lenta demais; reconectando.',
  goingAway: 'Servidor reiniciando; reconectando.',
  unknownCollection: 'Coleção desconhecida: {collection}.',
  tooManySubscriptions: 'Limite de assinaturas por conexão atingido.',
  invalidQuery: 'Consulta inválida: {detail}',
  invalidStatus: 'Status inválido. Use logon, logoff ou um status da lista.',
  invalidHeartbeat: 'O campo heartbeat deve ser true ou false.',
} as const;
