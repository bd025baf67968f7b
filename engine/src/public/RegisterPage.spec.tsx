import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './RegisterPage.stories';
import { session } from '../api/session';
import { recordedCalls } from '../stories/fakeApi';

const { Default, Slow, EmailInUse, Offline } = composeStories(stories);

async function fill(values: { name?: string; email?: string; password?: string; confirm?: string }) {
  const user = userEvent.setup();
  if (values.name) await user.type(screen.getByLabelText(messages.shell.displayName), values.name);
  if (values.email) await user.type(screen.getByLabelText(messages.shell.email), values.email);
  if (values.password) await user.type(screen.getByLabelText(messages.shell.password), values.password);
  if (values.confirm) await user.type(screen.getByLabelText(messages.shell.confirmPassword), values.confirm);
  await user.click(screen.getByRole('button', { name: messages.shell.signUp }));
}

const valid = { name: 'Nina Nova', email: 'nina@acme.test', password: 'segredo1', confirm: 'segredo1' };

describe('RegisterPage', () => {
  it('shows every required-field message of the seed', async () => {
    render(<Default />);
    await fill({});
    expect(screen.getByText(messages.validation.displayNameRequired)).toBeTruthy();
    expect(screen.getByText(messages.validation.emailRequired)).toBeTruthy();
    expect(screen.getByText(messages.validation.passwordRequired)).toBeTruthy();
    expect(screen.getByText(messages.validation.confirmRequired)).toBeTruthy();
    expect(recordedCalls().some((call) => call.path === '/api/users')).toBe(false);
  });

  it('asks for 6 characters and for matching passwords', async () => {
    render(<Default />);
    await fill({ name: 'Nina', email: 'nina@acme.test', password: '12345', confirm: '12346' });
    expect(screen.getByText('A senha deve conter pelo menos 6 caracteres')).toBeTruthy();
    expect(screen.getByText('As senhas informadas diferem!')).toBeTruthy();
  });

  it("shows 'cadastrando novo usuário', signs the new user in and goes to /", async () => {
    render(<Slow />);
    await fill(valid);
    expect(await screen.findByText('cadastrando novo usuário')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(session.user?.email).toBe('nina@acme.test');
    const call = recordedCalls().find((c) => c.path === '/api/users')!;
    expect(call.body).toMatchObject({ displayName: 'Nina Nova', email: 'nina@acme.test', password: 'segredo1', confirmPassword: 'segredo1' });
  });

  it("shows the server's error in the alert and under the field", async () => {
    render(<EmailInUse />);
    await fill(valid);
    expect(await screen.findAllByText('Este e-mail já está cadastrado.')).toHaveLength(2);
    expect(screen.queryByTestId('location')).toBeNull();
  });

  it('shows the generic internal error when the server cannot be reached', async () => {
    render(<Offline />);
    await fill(valid);
    expect(await screen.findByText('Erro interno, favor contactar o administrador.')).toBeTruthy();
  });
});
