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

/**
 * pt-BR titles of the Cloud API error codes of Meta's public catalogue (developers.facebook.com
 * "WhatsApp Cloud API error codes": authorization, throttling, integrity and the 13xxxx
 * messaging, template, flow and registration codes). Send answers, failed statuses and errors
 * attached to inbound messages all use it; `cloudApiErrorTitle` covers the ranges and codes
 * outside the list.
 */
export const CLOUD_API_ERRORS_PT_BR: Record<number, string> = {
  0: 'Falha na autenticação do aplicativo',
  1: 'Erro desconhecido na API do WhatsApp',
  2: 'Serviço da API do WhatsApp temporariamente indisponível',
  3: 'O aplicativo não tem permissão para este recurso da API',
  4: 'Limite de chamadas do aplicativo atingido',
  10: 'Permissão negada ou revogada',
  33: 'Número de telefone da empresa inválido ou excluído',
  100: 'Parâmetro inválido',
  190: 'Token de acesso expirado ou inválido',
  368: 'Conta temporariamente bloqueada por violação de política',
  80007: 'Limite de chamadas da conta WhatsApp Business atingido',
  130429: 'Limite de envio atingido, tentando novamente',
  130472: 'Número do cliente faz parte de um experimento da Meta: mensagem não entregue',
  130497: 'A conta não pode enviar mensagens para clientes deste país',
  131000: 'Falha inesperada no WhatsApp',
  131005: 'Acesso negado',
  131008: 'Parâmetro obrigatório ausente',
  131009: 'Valor de parâmetro inválido',
  131016: 'Serviço do WhatsApp indisponível no momento',
  131021: 'O destinatário não pode ser o próprio número da empresa',
  131026: 'Mensagem não entregue: número sem WhatsApp ou versão desatualizada',
  131031: 'Conta WhatsApp Business bloqueada',
  131037: 'O número precisa ter o nome de exibição aprovado',
  131042: 'Problema de pagamento da conta WhatsApp Business',
  131045: 'Certificado do número incorreto',
  131047: 'Janela de 24 horas expirada: envie um template',
  131048: 'Envio bloqueado por limite de spam',
  131049: 'A Meta não entregou a mensagem para preservar o engajamento do cliente',
  131050: 'O cliente optou por não receber mensagens de marketing',
  131051: 'Tipo de mensagem não suportado',
  131052: 'Falha ao baixar a mídia enviada pelo cliente',
  131053: 'Falha ao enviar a mídia',
  131055: 'Método não permitido',
  131056: 'Muitas mensagens para o mesmo contato, tentando novamente',
  131057: 'Conta WhatsApp Business em manutenção',
  131058: 'O template hello_world só pode ser enviado por números de teste',
  132000: 'Número de parâmetros do template não confere',
  132001: 'Template não existe no idioma informado',
  132005: 'Texto do template muito longo',
  132007: 'Template viola a política de conteúdo',
  132012: 'Formato de parâmetro do template inválido',
  132015: 'Template pausado por baixa qualidade',
  132016: 'Template desativado por baixa qualidade',
  132068: 'Flow bloqueado',
  132069: 'Flow com envio limitado',
  133000: 'Descadastro anterior do número incompleto',
  133004: 'Servidor do WhatsApp temporariamente indisponível',
  133005: 'PIN da verificação em duas etapas incorreto',
  133006: 'O número precisa ser verificado novamente',
  133008: 'Muitas tentativas do PIN da verificação em duas etapas',
  133009: 'PIN da verificação em duas etapas digitado rápido demais',
  133010: 'Número não registrado na API',
  133015: 'Aguarde alguns minutos antes de registrar este número',
  133016: 'Limite de registros e descadastros do número atingido',
  135000: 'Erro genérico do usuário',
};

/**
 * The pt-BR title of any Cloud API error code: the catalogue's, the 200–299 permission range's,
 * else a generic title naming the code (an agent never reads the provider's English alone).
 */
export function cloudApiErrorTitle(code: unknown): string {
  const n = Number(code);
  if (Number.isInteger(n) && CLOUD_API_ERRORS_PT_BR[n]) return CLOUD_API_ERRORS_PT_BR[n]!;
  if (Number.isInteger(n) && n >= 200 && n <= 299) return 'Permissão da API não concedida ou revogada';
  return `Erro do WhatsApp (código ${String(code ?? '?')})`;
}

const TRANSIENT = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 133004]);

/** Builds a ProviderError from a Graph-shaped error body `{ error: { code, message, ... } }`. */
export function cloudApiError(provider: string, httpStatus: number, body: unknown): ProviderError {
  const error = (body as { error?: { code?: number; message?: string; error_data?: { details?: string } } })?.error;
  const code = typeof error?.code === 'number' ? error.code : httpStatus;
  const title = error?.message ?? `HTTP ${httpStatus}`;
  const retryable = TRANSIENT.has(code) || httpStatus === 429 || httpStatus >= 500;
  return new ProviderError(provider, code, httpStatus, title, CLOUD_API_ERRORS_PT_BR[code] ?? 'Erro no Envio', retryable);
}
