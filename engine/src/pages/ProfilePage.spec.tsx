import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './ProfilePage.stories';
import { session } from '../api/session';
import { recordedCalls } from '../stories/fakeApi';

const { Default, TenantWithoutFollowMe, UserWithoutFollowMe, FirstAccess, PasswordRecovery, EmailConfirmed, ChangePassword, WrongCurrentPassword, ServerRefuses } = composeStories(stories);

const patches = () => recordedCalls().filter((call) => call.method === 'PATCH' && call.path === '/api/profile');
const update = () => userEvent.setup().click(screen.getByRole('button', { name: 'Atualizar' }));

describe('ProfilePage', () => {
  it('shows the read-only e-mail, the display name and the masked WhatsApp', () => {
    render(<Default />);
    const email = screen.getByLabelText('E-mail') as HTMLInputElement;
    expect(email.value).toBe('agente@acme.test');
    expect(email.readOnly).toBe(true);
    expect((screen.getByLabelText('Nome de exibição') as HTMLInputElement).value).toBe('Amanda Agente');
    expect((screen.getByLabelText('WhatsApp') as HTMLInputElement).value).toBe('+55 (11) 98765.4321');
    expect(screen.queryByText('Primeiro acesso: defina uma nova senha para continuar.')).toBeNull();
  });

  it('shows the WhatsApp field only when the tenant and the user allow follow-me', () => {
    const first = render(<TenantWithoutFollowMe />);
    expect(screen.queryByLabelText('WhatsApp')).toBeNull();
    first.unmount();
    render(<UserWithoutFollowMe />);
    expect(screen.queryByLabelText('WhatsApp')).toBeNull();
  });

  it('masks what is typed as +## (##) #####.####', async () => {
    render(<Default />);
    const input = screen.getByLabelText('WhatsApp') as HTMLInputElement;
    const user = userEvent.setup();
    await user.clear(input);
    await user.type(input, '5521912345678');
    expect(input.value).toBe('+55 (21) 91234.5678');
  });

  it("refuses different passwords with 'As senhas informadas diferem!'", async () => {
    render(<Default />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Nova senha'), 'segredo1');
    await user.type(screen.getByLabelText('Confirmar nova senha'), 'segredo2');
    await update();
    expect(screen.getByText('As senhas informadas diferem!')).toBeTruthy();
    expect(patches()).toHaveLength(0);
  });

  it("saves the name and WhatsApp without a password and toasts 'Perfil atualizado!'", async () => {
    render(<Default />);
    const user = userEvent.setup();
    const name = screen.getByLabelText('Nome de exibição');
    await user.clear(name);
    await user.type(name, 'Amanda Souza');
    await update();
    expect(await screen.findByText('Perfil atualizado!')).toBeTruthy();
    expect(patches()[0]!.body).toEqual({ displayName: 'Amanda Souza', whatsapp: '+55 (11) 98765.4321' });
    expect(session.user?.displayName).toBe('Amanda Souza');
  });

  it('shows the first-access banner and requires the new password while updatePass is set', async () => {
    render(<FirstAccess />);
    expect(screen.getByText('Primeiro acesso: defina uma nova senha para continuar.')).toBeTruthy();
    await update();
    expect(screen.getByText('Informe a senha')).toBeTruthy();
    expect(screen.getByText('Informe a senha de confirmação')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Nova senha'), 'nova-senha');
    await user.type(screen.getByLabelText('Confirmar nova senha'), 'nova-senha');
    await update();
    await waitFor(() => expect(session.user?.updatePass).toBe(false));
    expect(patches()[0]!.body).toEqual({ displayName: 'Amanda Agente', password: 'nova-senha', confirmPassword: 'nova-senha', whatsapp: null });
  });

  it('a recovery link says recovery; a confirmed sign-up e-mail says its password was discarded (never "Primeiro acesso")', () => {
    const recovery = render(<PasswordRecovery />);
    expect(screen.getByText('Recuperação de senha: defina uma nova senha para continuar.')).toBeTruthy();
    expect(screen.queryByText(/Primeiro acesso/)).toBeNull();
    recovery.unmount();
    render(<EmailConfirmed />);
    expect(screen.getByText('E-mail confirmado. Por segurança, a senha escolhida no cadastro foi descartada: defina uma nova senha para continuar.')).toBeTruthy();
    expect(screen.queryByText(/Primeiro acesso/)).toBeNull();
  });

  it("changing a password the account has asks for 'Senha atual' first, and sends it", async () => {
    render(<ChangePassword />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Nova senha'), 'Girassol-Azul-9');
    await user.type(screen.getByLabelText('Confirmar nova senha'), 'Girassol-Azul-9');
    await update();
    expect(screen.getByText('Informe a senha atual para trocar a senha')).toBeTruthy();
    expect(patches()).toHaveLength(0);
    await user.type(screen.getByLabelText('Senha atual'), 'senha-de-hoje');
    await update();
    expect(await screen.findByText('Perfil atualizado!')).toBeTruthy();
    expect(patches()[0]!.body).toMatchObject({ currentPassword: 'senha-de-hoje', password: 'Girassol-Azul-9', confirmPassword: 'Girassol-Azul-9' });
  });

  it("no 'Senha atual' on a first access, a recovery, or an account without a password", () => {
    for (const Story of [FirstAccess, PasswordRecovery, Default]) {
      const view = render(<Story />);
      expect(screen.queryByLabelText('Senha atual')).toBeNull();
      view.unmount();
    }
  });

  it("a wrong current password shows the server's message under 'Senha atual'", async () => {
    render(<WrongCurrentPassword />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Senha atual'), 'chute');
    await user.type(screen.getByLabelText('Nova senha'), 'Girassol-Azul-9');
    await user.type(screen.getByLabelText('Confirmar nova senha'), 'Girassol-Azul-9');
    await update();
    expect(await screen.findByText('Senha atual incorreta')).toBeTruthy();
  });

  it("shows the server's field message and toasts its error", async () => {
    render(<ServerRefuses />);
    await update();
    expect(await screen.findByText('Dados inválidos: displayName')).toBeTruthy();
    expect(screen.getByText('Informe o nome de exibição')).toBeTruthy();
  });
});
