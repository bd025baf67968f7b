/** Domain types shared by server and browser, in the shapes the specification names. */
import type { ChatTabSetting } from './chat/tabs';

export interface LifeControl {
  createdAt: string;
  updatedAt?: string | null;
  deletedAt: string | null;
}

export type UserType = 'agent' | 'anonymous';

/** Per-user claims (seed 000 §3 "Agent claims", 001 §6, 002 §3) plus screen permissions. */
export interface UserClaims {
  admin?: boolean;
  allowActiveMessage?: boolean;
  allowFollowMe?: boolean;
  followMe?: boolean;
  enableBotTab?: boolean;
  disableQueuesTab?: boolean;
  enableAllQueuesTab?: boolean;
  enableAllContacts?: boolean;
  enableAllHistoryChats?: boolean;
  vendHistory?: boolean;
  showNPS?: boolean;
  showCSAT?: boolean;
  disableDeleteMessages?: boolean;
  noTranshipment?: boolean;
  seeDeletedMessages?: boolean;
  inbox?: boolean;
  disableNotifications?: boolean;
  enableAllNegotiations?: boolean;
  /** Screen permissions named after the route's first segment (contacts, agents, dashboard...). */
  [permission: string]: boolean | undefined;
}

/** Why a user is asked for a new password (User.updatePassReason). */
export type UpdatePassReason = 'firstAccess' | 'recovery' | 'emailConfirmed';

export interface User {
  id: string;
  type: UserType;
  displayName: string;
  email: string;
  photoUrl: string | null;
  claims: UserClaims;
  team: string[];
  status: string | null;
  erpUserId: string | null;
  updatePass: boolean;
  /**
   * Why the user must choose a password now (the profile page says it): an account an admin
   * created ('firstAccess'), a recovery link ('recovery'), or a self-registered account whose
   * e-mail a link just confirmed ('emailConfirmed': the sign-up password was discarded).
   */
  updatePassReason?: UpdatePassReason | null;
  /** Computed: the account has a password (one signed in only by e-mailed links or Google has none); changing it then asks for it. */
  hasPassword?: boolean;
  active: boolean;
  whatsapp?: string | null;
  showChatsWithTags?: string[];
  /** Computed: departments this user supervises (seed: "listed in a department's supervisors"). */
  supervisorOf?: string[];
  /** Computed: departments this user is an agent of. */
  departments?: string[];
  lifeControl: LifeControl;
}

export interface StatusOption {
  text: string;
  color: string;
  icon: string;
  index: number;
}

/** Tenant configuration read by the app at start-up (GET /api/master/tenants/{id}/appConfig). */
export interface AppConfig {
  tenantId: string;
  name: string;
  /** Tenant feature flags (seed "claims"): publicRegister, allowFollowMe, hideRightMenus... */
  claims: Record<string, boolean | undefined>;
  statusList: StatusOption[];
  hiddenViews: string[];
  rootView: string | null;
  toastNotification: { position: 'top-right' | 'top-left' | 'bottom-right' | 'bottom-left' | 'top-center' | 'bottom-center' };
  closeJustify: { justifies: string[]; obsRules: { pattern: string; message: string }[]; reportOnly: boolean; nextMaxDate: number };
  transferJustify: string[];
  /** Order, labels and hidden chat tabs (seed 001 §2; `ChatTabSetting`, schemas/src/chat/tabs.ts); null: the defaults. */
  chatTabs: ChatTabSetting[] | null;
  demoDatabase: boolean;
  footer: { name: string; link: string } | null;
  assets: { logoUrl: string | null; backgroundUrl: string | null };
  protheus: { sgbd: string; companies: { M0_NOME: string; M0_CODIGO: string }[]; branches: { M0_FILIAL: string }[] } | null;
  mapsKey: string | null;
  api: boolean;
  hiddenTemplates: string[];
  /** IANA time zone of the tenant's calendar (closing dates, business hours, daily reports); default America/Sao_Paulo. */
  timeZone?: string;
  /** ERP proxy (docs/erp.md): the only ERP base URLs the proxy, integration forms and documents may call. */
  erp?: ErpSettings | null;
  /** The quotes portal framed by 'Orçamentos' (seed 001 §8; schemas/src/chat/quotes.ts); null: no button. */
  quotesUrl?: string | null;
  /** LGPD retention (docs/lgpd.md): closed chats older than these many days are anonymised, their files deleted. */
  retention?: RetentionSettings | null;
}

/** Per-tenant retention of closed chats (docs/lgpd.md); null or 0 days means "keep". */
export interface RetentionSettings {
  /** Closed chats older than this: messages and contact data anonymised, files deleted, statistics kept. */
  closedChatsDays?: number | null;
  /** Files of closed chats older than this are deleted first (media usually weighs most); at most closedChatsDays. */
  mediaDays?: number | null;
}

/** Where a tenant's ERP answers and how long to wait for it (seed 000 §7). */
export interface ErpSettings {
  /** Base URLs, e.g. https://erp.cliente.com.br:8080/rest; the first is the default target. */
  urls: string[];
  /** Path of the query service under a base URL (default '/consulta'). */
  queryPath?: string;
  /** Per-call time limit, ms (default 60000, at most 600000). */
  timeoutMs?: number;
  /** Oracle row limit when an integration names no apiRestSearchLimit (default 20). */
  searchLimit?: number;
}

/** Answer of sign-in, sign-up, refresh and link completion. */
export interface AuthSession {
  accessToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
  user: User;
}

/** Body of every error answer: `error` is a stable machine code, `errorMessage` pt-BR text. */
export interface ApiError {
  error: string;
  errorMessage: string;
  fields?: { field: string; message: string }[];
}
