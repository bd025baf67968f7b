import { afterEach, describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './DrawerMenu.stories';
import { MENU_ITEM_CLICK_EVENT } from './DrawerMenu';
import { session } from '../api/session';
import { recordedCalls } from '../stories/fakeApi';
import { messages } from '@atendimento/schemas';

const { Agent, Supervisor, Admin, HiddenView, HideRightMenus, LogoutLast, FollowMeActive, TenantWithoutFollowMe, FollowMeWithoutWhatsapp, Collapsed } = composeStories(stories);

/** The drawer's entries, top to bottom, by their accessible names. */
const entries = () => screen.getAllByRole('button').filter((b) => b.classList.contains('MuiListItemButton-root')).map((b) => b.getAttribute('aria-label'));
const routes = () => screen.getAllByRole('button').map((b) => b.getAttribute('data-route')).filter(Boolean);
const ACTIONS = ['Sair', 'Ativar Notificações', 'Agentes Online', 'Siga-me', 'Novidades'];

afterEach(() => vi.useRealTimers());

describe('DrawerMenu', () => {
  it('shows an agent the screens open to every user plus the tenant-claim ones, then the actions', () => {
    render(<Agent />);
    expect(entries()).toEqual(['Atendimento', 'Filas', 'Mensagens Fixas', ...ACTIONS]);
    expect(screen.getByText('Amanda Agente')).toBeTruthy();
    expect(screen.getByText('agente@acme.test')).toBeTruthy();
  });

  it("adds 'Dashboard' for a user holding a permission named like the path", () => {
    render(<Supervisor />);
    expect(routes()).toEqual(['/', '/queues', '/fixedMessages', '/dashboard']);
  });

  it('shows an admin every admin screen, but tenant-claim screens only with the tenant claim', () => {
    render(<Admin />);
    const admin = routes();
    expect(admin).toEqual(['/', '/contacts', '/agents', '/departaments', '/queues', '/fixedMessages', '/faq', '/contingecies', '/tags', '/notifications', '/integrations', '/dashboard', '/channels', '/settings']);
    expect(admin).not.toContain('/clients');
    expect(admin).not.toContain('/api');
    expect(screen.getByRole('button', { name: 'Contatos' }).getAttribute('aria-current')).toBe('page');
  });

  it("leaves out the tenant's hidden views", () => {
    render(<HiddenView />);
    expect(routes()).toEqual(['/', '/fixedMessages']);
  });

  it("hides 'Agentes Online', 'Siga-me' and 'Novidades' with hideRightMenus", () => {
    render(<HideRightMenus />);
    expect(entries().slice(-2)).toEqual(['Sair', 'Ativar Notificações']);
    for (const hidden of ['Agentes Online', 'Siga-me', 'Novidades']) expect(screen.queryByRole('button', { name: hidden })).toBeNull();
  });

  it("moves 'Sair' to the end with logoutLast", () => {
    render(<LogoutLast />);
    expect(entries().slice(-5)).toEqual(['Ativar Notificações', 'Agentes Online', 'Siga-me', 'Novidades', 'Sair']);
  });

  it("shows 'Siga-me' only when the tenant and the user allow follow-me, marked when it is on", () => {
    const first = render(<TenantWithoutFollowMe />);
    expect(screen.queryByRole('button', { name: 'Siga-me' })).toBeNull();
    first.unmount();
    const second = render(<Agent />);
    expect(screen.getByRole('button', { name: 'Siga-me' }).getAttribute('aria-pressed')).toBe('false');
    second.unmount();
    render(<FollowMeActive />);
    expect(screen.getByRole('button', { name: 'Siga-me' }).getAttribute('aria-pressed')).toBe('true');
  });

  it("turns follow-me on on the server and says 'Siga-me Ativado'", async () => {
    render(<Agent />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Siga-me' }));
    expect(await screen.findByText('Siga-me Ativado')).toBeTruthy();
    const patch = recordedCalls().find((call) => call.method === 'PATCH' && call.path === '/api/profile')!;
    expect(patch.body).toEqual({ followMe: true });
    expect(session.user?.claims.followMe).toBe(true);
  });

  it("without a WhatsApp number the server's refusal is shown and follow-me stays off", async () => {
    render(<FollowMeWithoutWhatsapp />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Siga-me' }));
    expect(await screen.findByText(messages.chatServer.followMeNeedsWhatsapp)).toBeTruthy();
    expect(screen.queryByText('Siga-me Ativado')).toBeNull();
    expect(screen.getByRole('button', { name: 'Siga-me' }).getAttribute('aria-pressed')).toBe('false');
  });

  it("lists who is online in 'Agentes Online'", async () => {
    render(<Agent />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Agentes Online' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agentes Online' });
    expect(await within(dialog).findByText('Ana Administradora')).toBeTruthy();
    expect(within(dialog).getByText('Sérgio Supervisor')).toBeTruthy();
  });

  it("signs out with 'Sair'", async () => {
    const onLogout = vi.fn();
    render(<Agent onLogout={onLogout} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sair' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('navigates and tells the console to clear its counters and stored search', async () => {
    const cleared = vi.fn();
    window.addEventListener(MENU_ITEM_CLICK_EVENT, cleared);
    try {
      render(<Agent />);
      await userEvent.setup().click(screen.getByRole('button', { name: 'Filas' }));
      expect(screen.getByTestId('location').textContent).toBe('/queues');
      expect(cleared).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener(MENU_ITEM_CLICK_EVENT, cleared);
    }
  });

  it('re-collapses 2 s after an item is clicked', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    render(<Agent />);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    // jsdom has no Notification API: the seed's error toast shows.
    await user.click(screen.getByRole('button', { name: 'Ativar Notificações' }));
    expect(await screen.findByText('Erro ao ativar notificações, verifique as configurações do seu navegador')).toBeTruthy();
    expect(screen.getByTestId('drawer').dataset.open).toBe('true');
    await act(() => vi.advanceTimersByTimeAsync(1800));
    expect(screen.getByTestId('drawer').dataset.open).toBe('true');
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(screen.getByTestId('drawer').dataset.open).toBe('false');
  });

  it('goes to /profile from the edit button', async () => {
    render(<Agent />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Editar perfil' }));
    expect(screen.getByTestId('location').textContent).toBe('/profile');
  });

  it('starts collapsed showing icons only, and expands from the menu button', async () => {
    render(<Collapsed />);
    expect(screen.queryByText('Amanda Agente')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Expandir menu' }));
    await waitFor(() => expect(screen.getByTestId('drawer').dataset.open).toBe('true'));
    expect(screen.getByText('Amanda Agente')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Recolher menu' })).toBeTruthy();
  });
});
