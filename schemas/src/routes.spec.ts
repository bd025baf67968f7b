import { describe, expect, it } from 'vitest';
import { APP_ROUTES, routesFor } from './app-routes';
import { REGISTERS } from './registers/catalog';
import { canOpenRoute, findRoute, guardRedirect, menuRoutes, pathAfterSignIn, publicMenuRoutes, routeTable } from './routes';

const config = (extra: { claims?: Record<string, boolean>; hiddenViews?: string[]; rootView?: string | null; api?: boolean } = {}) => ({
  claims: {},
  hiddenViews: [],
  rootView: null,
  api: false,
  ...extra,
});
const admin = { claims: { admin: true } };
const agent = { claims: {} };
const supervisor = { claims: { dashboard: true } };
const paths = (routes: { path: string }[]) => routes.map((route) => route.path);

describe('route table', () => {
  it('has every route of seed 000 §2 and 002 §2 exactly once, with the seed spellings', () => {
    const all = paths([...APP_ROUTES]);
    for (const path of ['/linkexpirado', '/register', '/finishSignUp', '/login', '/404', '/chat/:id', '/profile', '/', '/contacts',
      '/clients', '/agents', '/participants', '/stores', '/negotiations', '/departaments', '/queues', '/employees', '/products',
      '/fixedMessages', '/dm_qrcodes', '/faq', '/contingecies', '/tags', '/flows', '/notifications', '/notifications/:id',
      '/sumaries', '/integrations', '/dashboard', '/api', '/novidades']) {
      expect(all.filter((p) => p === path), path).toHaveLength(1);
    }
    expect(APP_ROUTES.find((route) => route.path === '/')?.name).toBe('Atendimento');
  });

  it("takes each register's row from its folder's list.json, in the seed's drawer order", () => {
    for (const { list } of REGISTERS.values()) {
      expect(APP_ROUTES.filter((route) => route.path === list.route), list.name).toEqual([
        expect.objectContaining({ name: list.label, icon: list.icon, access: list.access, kind: 'register', inMenu: list.menu, ...(list.claim && { claim: list.claim }) }),
      ]);
    }
    // Built from list.json alone, it is the table the full definitions give, row for row.
    expect(APP_ROUTES).toEqual(routeTable([...REGISTERS.values()].map((definition) => definition.list)));
    expect(paths(APP_ROUTES.filter((route) => route.inMenu))).toEqual(['/', '/contacts', '/clients', '/agents', '/participants', '/stores', '/negotiations',
      '/departaments', '/queues', '/employees', '/products', '/fixedMessages', '/dm_qrcodes', '/faq', '/contingecies', '/tags', '/flows', '/notifications',
      '/sumaries', '/integrations', '/dashboard', '/channels', '/settings', '/api']);
    // A new folder without a drawer place comes after every numbered screen, before the others.
    const extra = { route: '/boletos', label: 'Boletos', icon: 'Receipt', access: 'admin' as const, menu: true };
    const menu = paths(routeTable([extra]).filter((route) => route.inMenu));
    expect(menu.slice(-2)).toEqual(['/api', '/boletos']);
  });

  it('lists the drawer for an admin: every admin screen, but tenant-claim screens only when the tenant has the claim', () => {
    const menu = paths(menuRoutes(APP_ROUTES, admin, config({ claims: { queues: true } })));
    expect(menu).toEqual(expect.arrayContaining(['/', '/contacts', '/agents', '/departaments', '/queues', '/fixedMessages', '/dashboard', '/integrations']));
    expect(menu).not.toContain('/clients');
    expect(menu).not.toContain('/profile');
    expect(menu).not.toContain('/notifications/:id');
    expect(menu).not.toContain('/login');
    expect(menu).not.toContain('/api');
    expect(paths(menuRoutes(APP_ROUTES, admin, config({ api: true })))).toContain('/api');
  });

  it('shows an agent only open screens, and a supervisor also the screens their claims name', () => {
    expect(paths(menuRoutes(APP_ROUTES, agent, config()))).toEqual(['/', '/fixedMessages']);
    expect(paths(menuRoutes(APP_ROUTES, supervisor, config()))).toEqual(['/', '/fixedMessages', '/dashboard']);
  });

  it('hides views the tenant lists in hiddenViews, by segment or path', () => {
    const menu = paths(menuRoutes(APP_ROUTES, admin, config({ hiddenViews: ['tags', '/faq'] })));
    expect(menu).not.toContain('/tags');
    expect(menu).not.toContain('/faq');
    expect(menu).toContain('/contacts');
  });

  it('matches sub-pages of a register and route parameters', () => {
    expect(findRoute(APP_ROUTES, '/contacts/12/show')?.path).toBe('/contacts');
    expect(findRoute(APP_ROUTES, '/notifications/abc')?.path).toBe('/notifications/:id');
    expect(findRoute(APP_ROUTES, '/chat/tok123')?.path).toBe('/chat/:id');
    expect(findRoute(APP_ROUTES, '/profile?x=1')?.path).toBe('/profile');
    expect(findRoute(APP_ROUTES, '/nada')).toBeUndefined();
  });
});

describe('guard', () => {
  it('sends a non-admin who types an admin URL to /, and lets admins and permission holders in', () => {
    expect(guardRedirect(APP_ROUTES, '/agents', agent, config())).toBe('/');
    expect(guardRedirect(APP_ROUTES, '/agents/7', agent, config())).toBe('/');
    expect(guardRedirect(APP_ROUTES, '/agents', admin, config())).toBeNull();
    expect(guardRedirect(APP_ROUTES, '/dashboard', supervisor, config())).toBeNull();
    expect(guardRedirect(APP_ROUTES, '/api', admin, config())).toBe('/');
  });

  it('sends signed-out visitors of private routes to /login and leaves public routes open', () => {
    expect(guardRedirect(APP_ROUTES, '/profile', null, config())).toBe('/login');
    expect(guardRedirect(APP_ROUTES, '/chat/x', null, config())).toBeNull();
    expect(guardRedirect(APP_ROUTES, '/login', null, config())).toBeNull();
  });

  it('opens /register only with publicRegister, otherwise to /', () => {
    expect(guardRedirect(APP_ROUTES, '/register', null, config())).toBe('/');
    expect(guardRedirect(APP_ROUTES, '/register', null, config({ claims: { publicRegister: true } }))).toBeNull();
    expect(paths(publicMenuRoutes(APP_ROUTES, config()))).toEqual(['/login']);
    expect(paths(publicMenuRoutes(APP_ROUTES, config({ claims: { publicRegister: true } })))).toEqual(['/login', '/register']);
  });

  it('refuses a tenant-claim route when the tenant lacks the claim', () => {
    expect(canOpenRoute(findRoute(APP_ROUTES, '/clients')!, admin, config())).toBe(false);
    expect(canOpenRoute(findRoute(APP_ROUTES, '/clients')!, agent, config({ claims: { clients: true } }))).toBe(true);
  });
});

describe('root view', () => {
  it('moves the configured view to / and the service view to /service', () => {
    const routes = routesFor(config({ rootView: 'dashboard' }));
    expect(findRoute(routes, '/')?.name).toBe('Dashboard');
    expect(findRoute(routes, '/service')?.name).toBe('Atendimento');
    expect(findRoute(routes, '/dashboard')).toBeUndefined();
    // An agent without the dashboard permission lands on the service view, not in a loop.
    expect(guardRedirect(routes, '/', agent, config({ rootView: 'dashboard' }))).toBe('/service');
    expect(guardRedirect(routes, '/', supervisor, config({ rootView: 'dashboard' }))).toBeNull();
  });

  it('ignores an unknown root view', () => {
    expect(findRoute(routesFor(config({ rootView: '/nada' })), '/')?.name).toBe('Atendimento');
  });

  it('sends a user who must change the password to /profile after sign-in', () => {
    expect(pathAfterSignIn({ updatePass: true })).toBe('/profile');
    expect(pathAfterSignIn({ updatePass: false })).toBe('/');
  });
});
