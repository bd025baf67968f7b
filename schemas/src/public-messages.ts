/**
 * The texts the public screens (/login, /register, the boot and error screens) and the API
 * client need, part of `messages` (messages.ts) but a module of their own: the bundler keeps a
 * module whole, so /login carries these and not every text of the product (B10a, docs/bench.md).
 */

const tenant = {
  blockedTitle: 'Acesso Desabilitado.',
  blockedDetail: 'Tenant não ativo (contactar administrador)',
  unreachable: 'Não foi possivel contactar o sistema',
  unreachableHint:
    'Aguarde um minuto e recarregue a página. Se o problema persistir, contacte o administrador.',
  notFound: 'Tenant não encontrado para este endereço.',
} as const;

const pages = {
  notFound: '404',
  linkExpired: 'Link Expirado',
  serviceView: 'Atendimento',
} as const;

const validation = {
  emailRequired: 'Informe o e-mail',
  emailInvalid: 'Informe um e-mail válido',
  passwordRequired: 'Informe a senha',
  passwordMin: 'A senha deve conter pelo menos 6 caracteres',
  /** The policy's own words (docs/auth.md "Password policy"); below 6 the seed's message above. */
  passwordMin8: 'A senha deve conter pelo menos 8 caracteres',
  passwordTooLong: 'A senha deve conter no máximo 256 caracteres',
  passwordWeak: 'Senha muito comum ou fácil de adivinhar. Escolha outra: uma frase com palavras que só você conhece é mais segura.',
  confirmRequired: 'Informe a senha de confirmação',
  passwordsDiffer: 'As senhas informadas diferem!',
  /** Changing a password the user has (not a first access or a recovery) asks for it first. */
  currentPasswordRequired: 'Informe a senha atual para trocar a senha',
  currentPasswordWrong: 'Senha atual incorreta',
  displayNameRequired: 'Informe o nome de exibição',
  search3: 'Favor informar pelo menos 3 letras',
  search2: 'Favor informar pelo menos 2 letras',
  autocompleteHint: 'Digite para buscar (min. 3)',
  comboboxHint: 'Pressione Enter para inserir',
  phoneInvalid: 'Informe um número valido',
  channelRequired: 'Informe um canal',
  cgcRequired: 'Informe um CGC',
  cgcInvalid: 'CGC inválido',
  faqCategoryMax: 'O nome não pode ultrapassar 24 caracteres',
  faqQuestionMax: 'A pergunta não pode ultrapassar 72 caracteres',
  timeFormat: 'Formato Invalido (23:59)',
  numeric: 'Informe um valor numérico',
  invalidValue: 'valor inválido',
  /** Seed 001's text for a text over its limit (the message box's), for every register field without its own. */
  tooLong: 'Limite de caracteres excedido',
  typeRequired: 'Informe um tipo',
  storeNameRequired: 'Informe o nome da loja',
  exportPeriod90: 'Selecione o período (até 90 dias)',
  exportPeriod: 'Selecione o período',
  exportFileType: 'Selecione o tipo do arquivo',
  exportTimezone: 'Selecione o fuso horário',
  exportReferenceDate: 'Selecione uma Data de Referência',
  importFileRequired: 'Informe o arquivo a ser importado',
  requiredField: 'Campo obrigatório',
  requiredFieldRule: 'Campo Obrigatorio',
  ruleCommand: 'Selecione um comando valido',
  ruleMinutes: 'Selecione uma minutagem valida',
  ruleText: 'Adicione o texto da mensagem',
} as const;

const auth = {
  /** The e-mailed sign-in and password-recovery link. */
  linkMail: {
    subjectReset: 'Redefinição de senha - {tenant}',
    subjectSignIn: 'Seu acesso - {tenant}',
    introReset: 'Recebemos um pedido para redefinir sua senha. Use o link abaixo para entrar e escolher uma nova senha:',
    introSignIn: 'Use o link abaixo para entrar no sistema de atendimento:',
    greeting: 'Olá, {name}!',
    validity: 'O link vale por {minutes} minutos e pode ser usado uma única vez.',
    ignore: 'Se você não pediu este acesso, ignore este e-mail.',
  },
  validating: 'validando acesso',
  signedIn: 'Login efetuado!',
  signingUp: 'cadastrando novo usuário',
  signedUp: 'Cadastro efetuado!',
  entering: 'acessando',
  invalidEmail: 'E-mail inválido!',
  userDisabled: 'Usuário desabilitado!',
  invalidCredentials: 'Credenciais inválidas!',
  passwordLoginDisabled: 'Login por senha desativado! Entre em contato com desenvolvedor.',
  googleLoginDisabled: 'Login Google desativado! Entre em contato com o administrador.',
  popupClosed: 'O popup foi fechado pelo usuário antes de finalizar o login.',
  googleFlowInvalid: 'Login com Google expirado ou inválido. Tente novamente.',
  googleEmailUnverified: 'O Google não confirmou este e-mail. Use uma conta Google com e-mail verificado.',
  googleNoAccount: 'Nenhuma conta com este e-mail nesta empresa. Peça acesso ao administrador.',
  linkExpiredOrUsed: 'Link de acesso inválido. Link expirado ou já foi usado!',
  linkInvalid: 'Link de acesso inválido!',
  internalError: 'Erro interno, favor contactar o administrador.',
  recoverySent: 'Email enviado com sucesso!',
  accessEmailSent: 'E-mail de acesso enviado',
  tooManyAttempts: 'Muitas tentativas de acesso. Aguarde {wait} e tente novamente.',
  waitSeconds: '{n} segundos',
  waitSecond: '1 segundo',
  waitMinutes: '{n} minutos',
  waitMinute: '1 minuto',
  sessionExpired: 'Sessão expirada. Entre novamente.',
  notAuthenticated: 'Acesso não autorizado. Entre no sistema para continuar.',
  forbidden: 'Você não tem permissão para acessar este recurso.',
  registerDisabled: 'Cadastro público desativado para esta empresa.',
  emailInUse: 'Este e-mail já está cadastrado.',
  firstAccess: 'Primeiro acesso: defina uma nova senha para continuar.',
  profileUpdated: 'Perfil atualizado!',
  /** Only an admin changes an admin's e-mail, password, claims or status, and anyone's claims. */
  adminOnlyAccount: 'Somente um administrador pode alterar e-mail, senha, permissões ou situação de um administrador.',
  selfDelete: 'Você não pode excluir o próprio usuário. Peça a outro administrador.',
  lastAdmin: 'A empresa precisa de pelo menos um administrador ativo. Dê a permissão de administrador a outro agente antes.',
  adminOnlyClaims: 'Somente um administrador pode alterar permissões de usuários.',
  /** The notice sent to the old address when an account's e-mail or password changes. */
  accountNotice: {
    subject: 'Alteração na sua conta - {tenant}',
    greeting: 'Olá, {name}!',
    email: 'O e-mail de acesso da sua conta foi alterado para {email}.',
    password: 'A senha da sua conta foi alterada.',
    ignore: 'Se foi você, ignore este e-mail. Se não foi, avise o administrador imediatamente.',
  },
} as const;

const errors = {
  internal: 'Erro interno, favor contactar o administrador.',
  notFound: 'Registro não encontrado.',
  routeNotFound: 'Rota não encontrada.',
  methodNotAllowed: 'Método {method} não permitido nesta rota. Métodos aceitos: {allowed}.',
  /** Refused by Node's HTTP parser before the app sees the request (web/client-errors.ts). */
  badRequest: 'Requisição HTTP malformada.',
  headersTooLarge: 'Cabeçalhos ou endereço da requisição grandes demais (limite de 16 kB). Envie filtros longos no corpo ou em partes menores.',
  requestTimeout: 'A requisição demorou demais para chegar. Tente novamente.',
  badJson: 'Corpo da requisição inválido: envie um JSON válido.',
  nulChar: 'Texto com caractere nulo (\\u0000): remova-o e envie de novo.',
  payloadTooLarge: 'Conteúdo maior que o permitido.',
  uploadsBusy: 'Muitos envios de arquivos em andamento. Tente novamente em alguns segundos.',
  uploadInterrupted: 'O envio do arquivo foi interrompido antes do fim. Envie o arquivo novamente.',
  validation: 'Dados inválidos: {fields}',
  uiNotBuilt: 'A interface ainda não foi gerada. Rode "npm run build" (ou "npm start", que gera tudo).',
} as const;

/** The app shell (engine): sign-in screens, drawer, status bar, profile. Texts the seeds do not quote. */
const shell = {
  loading: 'Carregando...',
  reload: 'Recarregar',
  /** A lazily loaded part (a menu, a dialog) whose file could not be fetched: offline, or a new version was published. */
  partFailed: 'Esta parte da tela não carregou (sem conexão ou uma nova versão foi publicada). Recarregue a página.',
  email: 'E-mail',
  password: 'Senha',
  showPassword: 'Mostrar senha',
  hidePassword: 'Ocultar senha',
  signIn: 'Entrar',
  forgotPassword: 'Esqueci minha senha',
  recoveryTitle: 'Recuperar senha',
  recoveryText: 'Informe seu e-mail para receber um link de redefinição de senha.',
  emailLink: 'Entrar com link por e-mail',
  emailLinkText: 'Informe seu e-mail para receber um link de acesso que dispensa a senha.',
  send: 'Enviar',
  cancel: 'Cancelar',
  close: 'Fechar',
  save: 'Salvar',
  update: 'Atualizar',
  continue: 'Continuar',
  googleSignIn: 'Entrar com Google',
  displayName: 'Nome de exibição',
  confirmPassword: 'Confirmar senha',
  signUp: 'Cadastrar',
  finishTitle: 'Concluir acesso',
  finishText: 'Confirme o e-mail para o qual o link de acesso foi enviado.',
  linkExpiredText: 'Peça um novo link de acesso na tela de entrada.',
  backToLogin: 'Voltar para o login',
  notFoundText: 'Página não encontrada.',
  backHome: 'Voltar ao início',
  editProfile: 'Editar perfil',
  collapseMenu: 'Recolher menu',
  expandMenu: 'Expandir menu',
  status: 'Status',
  syncTemplates: 'Sincronizar Templates',
  noOnlineAgents: 'Nenhum agente online no momento.',
  demoDatabase: 'Base de demonstração: os dados desta empresa são fictícios.',
  footerCredit: 'Desenvolvido por',
  comingSoonTitle: 'Em breve',
  comingSoonText: 'Esta tela ainda está sendo construída.',
  changePhoto: 'Alterar foto',
  cropTitle: 'Ajustar foto',
  photoUpdated: 'Foto atualizada!',
  currentPassword: 'Senha atual',
  newPassword: 'Nova senha',
  confirmNewPassword: 'Confirmar nova senha',
  whatsapp: 'WhatsApp',
  news: [
    { title: 'Mensagens fixas no chat', text: 'Digite / no campo de mensagem para buscar suas mensagens fixas e envie com Enter.' },
    { title: 'Emojis', text: 'Use o botão de emoji ao lado do campo de mensagem para incluir emojis na conversa.' },
    { title: 'Colar anexos', text: 'Cole (Ctrl+V) imagens e arquivos direto no campo de mensagem para enviá-los como anexo.' },
  ],
} as const;

/** What the public screens and the boot path import instead of `messages` (the same objects). */
export const publicMessages = { tenant, pages, validation, auth, errors, shell } as const;

