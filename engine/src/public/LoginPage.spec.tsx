import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './LoginPage.stories';
import { session, STORAGE_KEYS } from '../api/session';
import { recordedCalls } from '../stories/fakeApi';

const { Default, WithGoogle, WrongPassword, MustChangePassword, NoPublicRegister } = composeStories(stories);

async function fill(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText(messages.shell.email), email);
  if (password) await user.type(screen.getByLabelText(messages.shell.password), password);
  await user.click(screen.getByRole('button', { name: messages.shell.signIn }));
  return user;
}

describe('LoginPage', () => {
  it('asks for the e-mail and the password with the seed messages', async () => {
    render(<Default />);
    await fill('', '');
    expect(screen.getByText(messages.validation.emailRequired)).toBeTruthy();
    expect(screen.getByText(messages.validation.passwordRequired)).toBeTruthy();
  });

  it('refuses an e-mail that does not look like one', async () => {
    render(<Default />);
    await fill('ana@', 'segredo');
    expect(screen.getByText(messages.validation.emailInvalid)).toBeTruthy();
  });

  it('signs in with the trimmed e-mail and goes to /', async () => {
    render(<Default />);
    await fill('  agente@acme.test  ', 'senha-forte');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    const login = recordedCalls().find((call) => call.path === '/api/auth/login')!;
    expect(login.body).toEqual({ email: 'agente@acme.test', password: 'senha-forte' });
    expect(session.user?.email).toBe('agente@acme.test');
    expect(session.token).toBe('token-u-agente');
  });

  it("shows the server's message when the password is wrong", async () => {
    render(<WrongPassword />);
    await fill('agente@acme.test', 'errada');
    expect(await screen.findByText('Credenciais inválidas!')).toBeTruthy();
    expect(screen.queryByTestId('location')).toBeNull();
  });

  it('sends a user with updatePass to /profile', async () => {
    render(<MustChangePassword />);
    await fill('agente@acme.test', 'senha-forte');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/profile'));
  });

  it('shows and hides the password', async () => {
    render(<Default />);
    const input = screen.getByLabelText(messages.shell.password) as HTMLInputElement;
    expect(input.type).toBe('password');
    await userEvent.setup().click(screen.getByRole('button', { name: messages.shell.showPassword }));
    expect(input.type).toBe('text');
  });

  it('sends the recovery e-mail from the forgot-password dialog and remembers the address', async () => {
    render(<Default />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: messages.shell.forgotPassword }));
    const dialog = await screen.findByRole('dialog');
    await user.type(dialog.querySelector('input')!, 'agente@acme.test');
    await user.click(screen.getByRole('button', { name: messages.shell.send }));
    expect(await screen.findByText(messages.auth.recoverySent)).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.emailForSignIn)).toBe('agente@acme.test');
  });

  it('shows the Google button only with the googleSignIn claim', () => {
    const { unmount } = render(<Default />);
    expect(screen.queryByRole('button', { name: messages.shell.googleSignIn })).toBeNull();
    unmount();
    render(<WithGoogle />);
    expect(screen.getByRole('button', { name: messages.shell.googleSignIn })).toBeTruthy();
  });

  it("'Entrar com Google' opens the flow in a popup; a popup closed before the end says so", async () => {
    const user = userEvent.setup();
    const open = vi.spyOn(window, 'open').mockReturnValue({ closed: true } as Window);
    try {
      render(<WithGoogle />);
      await user.click(screen.getByRole('button', { name: messages.shell.googleSignIn }));
      expect(open).toHaveBeenCalledWith('/api/auth/google/start', 'google-signin', expect.any(String));
      expect(await screen.findByText(messages.auth.popupClosed, undefined, { timeout: 5_000 })).toBeTruthy();
    } finally {
      open.mockRestore();
    }
  });

  it("lists 'Cadastro' in the public menu only with publicRegister", () => {
    const { unmount } = render(<Default />);
    expect(screen.getByRole('link', { name: 'Cadastro' })).toBeTruthy();
    unmount();
    render(<NoPublicRegister />);
    expect(screen.queryByRole('link', { name: 'Cadastro' })).toBeNull();
    expect(screen.getByRole('img', { name: 'Acme Atendimento' })).toBeTruthy();
  });
});
