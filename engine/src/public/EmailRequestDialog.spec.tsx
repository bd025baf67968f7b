import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './EmailRequestDialog.stories';

const { PasswordRecovery, SignInLink, Failure } = composeStories(stories);

describe('EmailRequestDialog', () => {
  it('validates the e-mail before sending', async () => {
    const onSubmit = vi.fn(async () => 'ok');
    render(<PasswordRecovery onSubmit={onSubmit} />);
    const dialog = screen.getByRole('dialog');
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(within(dialog).getByText('Informe o e-mail')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('E-mail'), 'ana@acme');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(within(dialog).getByText('Informe um e-mail válido')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("sends the trimmed e-mail, toasts 'Email enviado com sucesso!' and closes", async () => {
    const onClose = vi.fn();
    const onSubmit = vi.fn(async () => 'Email enviado com sucesso!');
    render(<PasswordRecovery onSubmit={onSubmit} onClose={onClose} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), '  agente@acme.test ');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(onSubmit).toHaveBeenCalledWith('agente@acme.test');
    expect(await screen.findByText('Email enviado com sucesso!')).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
  });

  it('starts with the address typed on the sign-in form', () => {
    render(<SignInLink />);
    expect(screen.getByRole('heading', { name: 'Entrar com link por e-mail' })).toBeTruthy();
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('agente@acme.test');
  });

  it('keeps the dialog open with the error when sending fails', async () => {
    const onClose = vi.fn();
    render(<Failure onClose={onClose} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), 'agente@acme.test');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await within(screen.getByRole('dialog')).findByText('Erro interno, favor contactar o administrador.')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});
