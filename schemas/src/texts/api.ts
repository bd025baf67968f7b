export const api = {
  tokenCopied: 'Token copiado',
  tokenGenerated: 'Token gerado',
  /** The OpenAPI description of /api (GET /api/openapi.json). */
  openApi: {
    description:
      'API REST do Atendimento. Autentique com `Authorization: Bearer <token>`: um token de API gerado na tela API (restrito às URLs e métodos escolhidos) ou o token de sessão do aplicativo. Erros respondem `{ error, errorMessage }`.',
    bearer: 'Token de API (atk_…) ou token de sessão.',
    error: 'Erro',
    errorCode: 'Código do erro (em inglês, estável).',
    errorMessage: 'Mensagem em português para o usuário.',
    integrationRecord: 'Registro de uma integração, validado pelo schema (vjsfSchemaMaster) da integração.',
    claimRequired: 'Exige a configuração {claim} da empresa.',
    access: {
      public: 'Pública.',
      anonymous: 'Usuário autenticado ou visitante anônimo (chat público).',
      user: 'Qualquer usuário autenticado.',
      member: 'Usuário autenticado com ao menos um departamento ou permissão (não um cadastro público sem liberação).',
      admin: 'Somente administradores.',
      supervisor: 'Administradores ou supervisores de departamento.',
      permission: 'Administradores ou usuários com a permissão da tela.',
      rule: 'Conforme a regra de acesso da tela.',
    },
    membersOnly: '{access} Escrita: somente usuários com departamento ou permissão.',
  },
} as const;
