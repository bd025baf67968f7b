/** Operations (docs/production.md): metrics access, readiness, graceful stop. */
export const ops = {
  metricsForbidden: 'Acesso às métricas negado. Envie o token de métricas (METRICS_TOKEN) ou acesse pela rede de administração.',
  notReady: 'Servidor ainda não está pronto: {checks}.',
  shuttingDown: 'Servidor reiniciando; tente novamente em instantes.',
} as const;
