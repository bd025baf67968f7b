/**
 * A provider refused or failed a call. `retryable` is true only for throttling and transient
 * failures (retry with back-off); the caller's mistakes are never retried.
 */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly code: number | string,
    readonly httpStatus: number,
    readonly title: string,
    readonly titlePtBR: string,
    readonly retryable: boolean,
  ) {
    super(`${provider}: ${code} ${title}`);
  }
}

/** pt-BR titles of the Cloud API errors agents actually meet (shown in the console). */
export const CLOUD_API_ERRORS_PT_BR: Record<number, string> = {
  130429: 'Limite de envio atingido, tentando novamente',
  131026: 'Mensagem não entregue: número sem WhatsApp ou versão desatualizada',
  131047: 'Janela de 24 horas expirada: envie um template',
  131048: 'Envio bloqueado por limite de spam',
  131051: 'Tipo de mensagem não suportado',
  131052: 'Falha ao baixar a mídia do usuário',
  131053: 'Falha ao enviar a mídia',
  131056: 'Muitas mensagens para o mesmo contato, tentando novamente',
  132000: 'Número de parâmetros do template não confere',
  132001: 'Template não existe no idioma informado',
  132005: 'Texto do template muito longo',
  132007: 'Template viola a política de conteúdo',
  132012: 'Formato de parâmetro do template inválido',
  133010: 'Número não registrado na API',
  100: 'Parâmetro inválido',
  190: 'Token de acesso expirado ou inválido',
  368: 'Conta temporariamente bloqueada por violação de política',
};

const TRANSIENT = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 133004]);

/** Builds a ProviderError from a Graph-shaped error body `{ error: { code, message, ... } }`. */
export function cloudApiError(provider: string, httpStatus: number, body: unknown): ProviderError {
  const error = (body as { error?: { code?: number; message?: string; error_data?: { details?: string } } })?.error;
  const code = typeof error?.code === 'number' ? error.code : httpStatus;
  const title = error?.message ?? `HTTP ${httpStatus}`;
  const retryable = TRANSIENT.has(code) || httpStatus === 429 || httpStatus >= 500;
  return new ProviderError(provider, code, httpStatus, title, CLOUD_API_ERRORS_PT_BR[code] ?? 'Erro no Envio', retryable);
}
