import type { AppConfig, User } from './domain';
import { allows, firstSegment, type RouteAccess } from './access';
import type { RegisterListMeta } from './registers/types';

export type { RouteAccess } from './access';

/**
 * The app's route table (seed 000 §2 "Routes", 002 §2): one row per screen with its pt-BR
 * name, its icon, who may open it and whether the left drawer lists it. The engine builds its
 * drawer, toolbar and route guard from this table.
 *
 * A register's row comes from its folder's list.json (label, icon, access, claim, menu,
 * menuOrder): `routeTable(registers)` merges them with the other screens below, in drawer
 * order. The browser's table is `APP_ROUTES` in ./app-routes (the bundled register folders);
 * the server builds the same from the folders it reads from disk.
 *
 * To add a screen that is not a register: add a row to SCREEN_ROUTES with its drawer place,
 * then mount its page in the engine (engine/src/App.tsx). The guard and the drawer follow.
 */

/** What renders the route: the console, a register (react-admin resource) or a page. */
export type RouteKind = 'service' | 'register' | 'page' | 'public';

export interface AppRoute {
  /** react-router path, e.g. '/contacts' or '/notifications/:id'. */
  path: string;
  /** Name shown in the drawer and the toolbar (pt-BR). */
  name: string;
  /** @mui/icons-material icon name, e.g. 'Contacts'. */
  icon: string;
  access: RouteAccess;
  /** For `admin-or-permission`: the user claim that also opens it (default: first path segment). */
  permission?: string;
  /** Tenant claim that must be on (required for `tenantClaim`; also allowed on public routes). */
  claim?: string;
  /** AppConfig boolean that must be on (e.g. 'api' for the API screen). */
  setting?: 'api';
  /** Listed in the left drawer. */
  inMenu: boolean;
  /** Listed in the public header menu (sign-in screens). */
  inPublicMenu?: boolean;
  kind: RouteKind;
}

const r = (
  path: string,
  name: string,
  icon: string,
  access: RouteAccess,
  kind: RouteKind,
  extra: Partial<AppRoute> = {},
): AppRoute => ({ path, name, icon, access, kind, inMenu: access !== 'public', ...extra });

/** Drawer place of a register whose list.json gives none: after every numbered screen. */
const LAST = 10_000;

/**
 * Every screen that is not a register folder, with its drawer place (registers number
 * theirs in list.json between these: contacts 10 ... tags 150, flows 160, integrations 190).
 */
const SCREEN_ROUTES: readonly (readonly [order: number, route: AppRoute])[] = [
  [0, r('/', 'Atendimento', 'Forum', 'user', 'service')],
  // Campaigns are a register of the seed whose screen is not built yet: it shows a placeholder.
  [170, r('/notifications', 'Campanhas', 'Campaign', 'admin-or-permission', 'register')],
  [171, r('/notifications/:id', 'Campanha', 'Campaign', 'admin-or-permission', 'page', { inMenu: false })],
  [180, r('/sumaries', 'Resumos', 'Summarize', 'tenantClaim', 'page', { claim: 'sumarizeRoom' })],
  [200, r('/dashboard', 'Dashboard', 'Dashboard', 'admin-or-permission', 'page')],
  [205, r('/channels', 'Canais', 'Hub', 'admin', 'page')],
  [206, r('/settings', 'Configurações', 'Settings', 'admin', 'page')],
  [210, r('/api', 'API', 'Api', 'admin', 'page', { setting: 'api' })],
  [20_000, r('/profile', 'Perfil', 'AccountCircle', 'user', 'page', { inMenu: false })],
  [20_001, r('/novidades', 'Novidades', 'NewReleases', 'user', 'page', { inMenu: false })],
  [30_000, r('/login', 'Entrar', 'Login', 'public', 'public', { inPublicMenu: true })],
  [30_001, r('/register', 'Cadastro', 'PersonAdd', 'public', 'public', { claim: 'publicRegister', inPublicMenu: true })],
  [30_002, r('/finishSignUp', 'Concluir acesso', 'MarkEmailRead', 'public', 'public')],
  [30_003, r('/linkexpirado', 'Link Expirado', 'LinkOff', 'public', 'public')],
  [30_004, r('/404', '404', 'ErrorOutline', 'public', 'public')],
  [30_005, r('/chat/:id', 'Chat', 'Chat', 'public', 'public')],
];

/** What of a register's list.json makes its route. */
export type RegisterRouteMeta = Pick<RegisterListMeta, 'route' | 'label' | 'icon' | 'access' | 'permission' | 'claim' | 'menu' | 'menuOrder'>;

/** A register's row of the table, from its list.json. */
function registerRoute(meta: RegisterRouteMeta): AppRoute {
  return r(meta.route, meta.label, meta.icon, meta.access, 'register', {
    inMenu: meta.menu,
    ...(meta.permission && { permission: meta.permission }),
    ...(meta.claim && { claim: meta.claim }),
  });
}

/** The whole table: the screens above and one row per register, in drawer order. */
export function routeTable(registers: Iterable<RegisterRouteMeta>): AppRoute[] {
  const rows: (readonly [number, AppRoute])[] = [...SCREEN_ROUTES];
  for (const meta of registers) rows.push([meta.menuOrder ?? LAST, registerRoute(meta)]);
  // Stable: registers without a place keep the order they were given in.
  return rows.sort((a, b) => a[0] - b[0]).map(([, route]) => route);
}

/**
 * The table without the register rows, for the public side (sign-in screens, the session
 * watcher): there only the public screens matter, and the register folders would add every
 * schema to the first download.
 */
export const SCREEN_TABLE: readonly AppRoute[] = routeTable([]);

/** Where the service view ('Atendimento') lives when the configuration names a root view. */
export const SERVICE_PATH_WITH_ROOT_VIEW = '/service';

type Config = Pick<AppConfig, 'claims' | 'hiddenViews' | 'rootView'> & Partial<Pick<AppConfig, 'api'>>;
type RouteUser = Pick<User, 'claims'> | null | undefined;

function normalisePath(path: string): string {
  const clean = '/' + path.replace(/^\/+/, '').replace(/[?#].*$/, '').replace(/\/+$/, '');
  return clean;
}

/**
 * A route table for one tenant: a configured root view (seed 000 §2) moves to '/' and the
 * service view to '/service'. An unknown root view is ignored. Rows keep their index.
 */
export function withRootView(table: readonly AppRoute[], config: Pick<AppConfig, 'rootView'> | null | undefined): AppRoute[] {
  const rootView = config?.rootView ? normalisePath(config.rootView) : null;
  const root = rootView && rootView !== '/' ? table.find((route) => route.path === rootView && route.kind !== 'public') : undefined;
  if (!root) return [...table];
  return table.map((route) => {
    if (route === root) return { ...route, path: '/', permission: route.permission ?? firstSegment(route.path) };
    if (route.kind === 'service') return { ...route, path: SERVICE_PATH_WITH_ROOT_VIEW };
    return route;
  });
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The parameters of `path` under `pattern` ('/chat/:id'), or null when it does not match: a
 * trailing slash ignored, parameters decoded. The route table matches case-sensitively; the
 * engine's shell matches its public screens ignoring case, as react-router's routes did.
 */
export function matchPattern(pattern: string, path: string, options: { ignoreCase?: boolean } = {}): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const expected = want[i]!;
    const segment = have[i]!;
    if (expected.startsWith(':')) params[expected.slice(1)] = decodeSegment(segment);
    else if (options.ignoreCase ? expected.toLowerCase() !== segment.toLowerCase() : expected !== segment) return null;
  }
  return params;
}

/** The route a browser path belongs to ('/contacts/12/show' → the '/contacts' route), if any. */
export function findRoute(routes: readonly AppRoute[], path: string): AppRoute | undefined {
  const clean = normalisePath(path);
  const exact = routes.find((route) => matchPattern(route.path, clean) !== null);
  if (exact) return exact;
  // Sub-pages of a register (react-admin's /contacts/create, /contacts/:id/show) belong to it.
  const segment = firstSegment(clean);
  if (!segment) return undefined;
  return routes.find((route) => route.kind === 'register' && firstSegment(route.path) === segment);
}

/** The hidden-views list names a view by its path segment ('clients') or path ('/clients'). */
export function isHiddenView(route: AppRoute, config: Pick<AppConfig, 'hiddenViews'> | null | undefined): boolean {
  const hidden = config?.hiddenViews ?? [];
  if (hidden.length === 0 || route.kind === 'public') return false;
  const segment = firstSegment(route.path);
  return hidden.some((view) => {
    const name = firstSegment(String(view));
    return name !== '' && name === segment;
  });
}

/**
 * Whether a user may open a route (seed 000 §2 "Navigation guard", drawer rules a-c). The
 * server enforces the same rules on its API; this only decides what the browser shows.
 */
export function canOpenRoute(route: AppRoute, user: RouteUser, config: Config | null | undefined): boolean {
  if (route.access !== 'public' && user) {
    if (route.setting && !config?.[route.setting]) return false;
    if (isHiddenView(route, config)) return false;
  }
  return allows({ access: route.access, permission: route.permission ?? firstSegment(route.path), claim: route.claim }, user, config);
}

/** The drawer's entries for this user and tenant, in table order. */
export function menuRoutes(routes: readonly AppRoute[], user: RouteUser, config: Config | null | undefined): AppRoute[] {
  return routes.filter((route) => route.inMenu && canOpenRoute(route, user, config));
}

/** The public header menu (seed 002 §2): public-menu routes whose claim is on. */
export function publicMenuRoutes(routes: readonly AppRoute[], config: Config | null | undefined): AppRoute[] {
  return routes.filter((route) => route.inPublicMenu && canOpenRoute(route, null, config));
}

/**
 * Where the guard sends a user who may not open `path`: nowhere (null) when allowed, '/login'
 * when signed out, otherwise '/' — or '/service' when the root view itself is closed to them.
 */
export function guardRedirect(routes: readonly AppRoute[], path: string, user: RouteUser, config: Config | null | undefined): string | null {
  const route = findRoute(routes, path);
  if (!route) return null;
  if (canOpenRoute(route, user, config)) return null;
  if (route.access !== 'public' && !user) return '/login';
  if (route.path === '/') {
    const service = routes.find((candidate) => candidate.kind === 'service');
    return service && service.path !== '/' && canOpenRoute(service, user, config) ? service.path : null;
  }
  return '/';
}

/** Where a user goes right after signing in (seed 002 §4): '/profile' with updatePass, else '/'. */
export function pathAfterSignIn(user: Pick<User, 'updatePass'>): string {
  return user.updatePass ? '/profile' : '/';
}
