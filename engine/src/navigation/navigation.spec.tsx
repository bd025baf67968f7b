import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useLocation as useRouterLocation, useNavigate as useRouterNavigate } from 'react-router';
import { matchPattern } from '@atendimento/schemas';
import { browserNavigation, joinPath, memoryNavigation, splitPath } from './navigation';
import { Navigate, NavigationProvider, RouteLink, useLocation, useNavigate } from './NavigationContext';
import { RouterBridge } from './RouterBridge';

describe('paths', () => {
  it('splits and joins a path with its search and hash', () => {
    expect(splitPath('/finishSignUp?token=abc#x')).toEqual({ pathname: '/finishSignUp', search: '?token=abc', hash: '#x' });
    expect(splitPath('contacts?')).toEqual({ pathname: '/contacts', search: '', hash: '' });
    expect(joinPath({ pathname: '/contacts', search: 'page=2', hash: 'top' })).toBe('/contacts?page=2#top');
    expect(joinPath({ search: '?a=1' })).toBe('/?a=1');
  });

  it("matches the shell's public paths as react-router did: any case, a trailing slash, decoded parameters", () => {
    expect(matchPattern('/chat/:id', '/chat/ab%20c')).toEqual({ id: 'ab c' });
    expect(matchPattern('/chat/:id', '/Chat/x/', { ignoreCase: true })).toEqual({ id: 'x' });
    // The route table (findRoute) matches case-sensitively.
    expect(matchPattern('/chat/:id', '/Chat/x/')).toBeNull();
    expect(matchPattern('/chat/:id', '/chat')).toBeNull();
    expect(matchPattern('/chat/:id', '/chat/x/y')).toBeNull();
    expect(matchPattern('/chat/:id', '/chats/x')).toBeNull();
    // A malformed escape is kept as typed instead of throwing.
    expect(matchPattern('/chat/:id', '/chat/%E0')).toEqual({ id: '%E0' });
  });
});

describe('browser navigation', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('pushes and replaces entries with their state, and follows popstate', async () => {
    window.history.replaceState(null, '', '/start');
    const navigation = browserNavigation(window);
    const seen: string[] = [];
    const stop = navigation.subscribe(() => seen.push(`${navigation.action()} ${navigation.location().pathname}`));
    navigation.push('/contacts/create?x=1', { record: { name: 'Ana' } });
    expect(window.location.pathname + window.location.search).toBe('/contacts/create?x=1');
    expect(navigation.location()).toMatchObject({ pathname: '/contacts/create', search: '?x=1', state: { record: { name: 'Ana' } } });
    const pushed = navigation.location();
    expect(navigation.location()).toBe(pushed);
    navigation.replace('/contacts');
    expect(navigation.location()).toMatchObject({ pathname: '/contacts', state: null });
    expect(navigation.location().key).not.toBe(pushed.key);
    // What a script (or the e2e helper goTo) does: its own entry, then a popstate.
    window.history.pushState({}, '', '/departments');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(navigation.location().pathname).toBe('/departments');
    stop();
    navigation.push('/tags');
    expect(seen).toEqual(['PUSH /contacts/create', 'REPLACE /contacts', 'POP /departments']);
  });
});

describe('memory navigation', () => {
  it('keeps a stack: push drops the forward entries, go stays inside it', () => {
    const navigation = memoryNavigation(['/a', '/b']);
    expect(navigation.location().pathname).toBe('/b');
    navigation.go(-1);
    expect(navigation.location().pathname).toBe('/a');
    navigation.push('/c');
    navigation.go(1);
    expect(navigation.location().pathname).toBe('/c');
    navigation.go(-5);
    expect(navigation.location().pathname).toBe('/a');
    navigation.replace('/d?q=1');
    expect(navigation.location()).toMatchObject({ pathname: '/d', search: '?q=1' });
    expect(navigation.action()).toBe('REPLACE');
  });
});

function Where({ id }: { id: string }) {
  const location = useLocation();
  return <p data-testid={id}>{location.pathname + location.search}</p>;
}

function RouterSide() {
  const location = useRouterLocation();
  const navigate = useRouterNavigate();
  return (
    <>
      <p data-testid="router">{location.pathname}</p>
      <p data-testid="router-state">{JSON.stringify(location.state)}</p>
      <button onClick={() => navigate('/contacts/create', { state: { record: { phone: '5511' } } })}>router</button>
      <button onClick={() => navigate('create')}>relative</button>
    </>
  );
}

function AppSide() {
  const navigate = useNavigate();
  return <button onClick={() => navigate('/tags', { state: { from: 'app' } })}>app</button>;
}

describe('hooks and the react-router bridge', () => {
  it('the app and react-router read and change one location, state included', () => {
    const navigation = memoryNavigation(['/contacts']);
    render(
      <NavigationProvider navigation={navigation}>
        <Where id="app" />
        <AppSide />
        <RouterBridge>
          <RouterSide />
        </RouterBridge>
      </NavigationProvider>,
    );
    expect(screen.getByTestId('router').textContent).toBe('/contacts');
    act(() => screen.getByText('router').click());
    expect(screen.getByTestId('app').textContent).toBe('/contacts/create');
    expect(screen.getByTestId('router-state').textContent).toBe('{"record":{"phone":"5511"}}');
    act(() => screen.getByText('app').click());
    expect(screen.getByTestId('router').textContent).toBe('/tags');
    expect(screen.getByTestId('router-state').textContent).toBe('{"from":"app"}');
    // react-router resolves a relative path against its route (here the root) before the bridge sees it.
    act(() => screen.getByText('relative').click());
    expect(screen.getByTestId('app').textContent).toBe('/create');
    act(() => navigation.go(-1));
    expect(screen.getByTestId('router').textContent).toBe('/tags');
    act(() => navigation.go(-1));
    expect(screen.getByTestId('app').textContent).toBe('/contacts/create');
  });

  it('Navigate replaces the location once rendered; a plain click on a RouteLink navigates in place, a modified one does not', () => {
    const navigation = memoryNavigation(['/old']);
    const { rerender } = render(
      <NavigationProvider navigation={navigation}>
        <Where id="app" />
        <Navigate to="/new" replace />
      </NavigationProvider>,
    );
    expect(screen.getByTestId('app').textContent).toBe('/new');
    navigation.go(-1);
    expect(navigation.location().pathname).toBe('/new');
    rerender(
      <NavigationProvider navigation={navigation}>
        <Where id="app" />
        <RouteLink to="/login">Entrar</RouteLink>
      </NavigationProvider>,
    );
    const link = screen.getByRole('link', { name: 'Entrar' });
    expect(link.getAttribute('href')).toBe('/login');
    const modified = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    act(() => void link.dispatchEvent(modified));
    expect(screen.getByTestId('app').textContent).toBe('/new');
    act(() => link.click());
    expect(screen.getByTestId('app').textContent).toBe('/login');
  });
});
