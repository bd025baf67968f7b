import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './FinishSignUpPage.stories';
import { session, STORAGE_KEYS } from '../api/session';
import { recordedCalls } from '../stories/fakeApi';

const { AskForEmail, RememberedEmail, ExpiredLink, WrongEmail, NoToken } = composeStories(stories);

const completions = () => recordedCalls().filter((call) => call.path === '/api/auth/email-link/complete');

describe('FinishSignUpPage', () => {
  it('asks for the e-mail when none is remembered, validates it and completes the link', async () => {
    render(<AskForEmail />);
    expect(screen.getByText(messages.shell.finishText)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: messages.shell.continue }));
    expect(screen.getByText('Informe o e-mail')).toBeTruthy();
    await user.type(screen.getByLabelText(messages.shell.email), 'agente@acme.test');
    await user.click(screen.getByRole('button', { name: messages.shell.continue }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(completions()[0]!.body).toEqual({ token: 'link-123', email: 'agente@acme.test' });
    expect(session.user?.email).toBe('agente@acme.test');
  });

  it("completes at once with the remembered e-mail, showing 'validando acesso', and forgets it", async () => {
    render(<RememberedEmail />);
    expect(screen.getByText('validando acesso')).toBeTruthy();
    expect(screen.queryByLabelText(messages.shell.email)).toBeNull();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(completions()).toHaveLength(1);
    expect(localStorage.getItem(STORAGE_KEYS.emailForSignIn)).toBeNull();
  });

  it('sends an expired or used link to /linkexpirado', async () => {
    render(<ExpiredLink />);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/linkexpirado'));
  });

  it("shows the server's message and lets the user try another e-mail", async () => {
    render(<WrongEmail />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(messages.shell.email), 'outro@acme.test');
    await user.click(screen.getByRole('button', { name: messages.shell.continue }));
    expect(await screen.findByText('Link de acesso inválido!')).toBeTruthy();
    expect(screen.getByLabelText(messages.shell.email)).toBeTruthy();
  });

  it("says 'Link de acesso inválido!' without a token and sends nothing", () => {
    render(<NoToken />);
    expect(screen.getByText('Link de acesso inválido!')).toBeTruthy();
    expect(screen.queryByRole('button', { name: messages.shell.continue })).toBeNull();
    expect(completions()).toHaveLength(0);
  });
});
