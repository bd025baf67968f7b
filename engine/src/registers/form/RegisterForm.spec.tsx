import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './RegisterForm.stories';

const { NewContact, ServerRejects, ServerFails, EditLockedPhone, Show, Department, NewAgent, EditAgent } = composeStories(stories);
/** A text box by its label, ignoring the required mark ('Nome *' is not 'Nome Completo'). */
const box = (label: string) => screen.getByRole('textbox', { name: new RegExp(`^${label}\\s*\\*?$`) }) as HTMLInputElement;
const save = () => screen.getByRole('button', { name: messages.registers.save });

describe('RegisterForm', () => {
  it('shows the seed messages on the failing fields and saves nothing', async () => {
    const user = userEvent.setup();
    render(<NewContact />);
    await user.type(box('E-mail'), 'nao-e-email');
    await user.type(box('Telefone'), '12ab');
    const before = stories.savedBodies().length;
    await user.click(save());
    expect(await screen.findByText('Informe o nome de exibição')).toBeTruthy();
    expect(screen.getByText('Informe um e-mail válido')).toBeTruthy();
    expect(screen.getByText('Informe um número valido')).toBeTruthy();
    expect(stories.savedBodies().length).toBe(before);
    // The first failing field takes the focus (on a long form it may be far above the button).
    expect(document.activeElement).toBe(box('Nome'));
  });

  it('accepts what the server accepts (phone typed with + ( ) and spaces) and sends empty fields as null', async () => {
    const user = userEvent.setup();
    render(<NewContact />);
    await user.type(box('Nome'), 'Maria Souza');
    await user.type(box('Telefone'), '+55 (11) 99999-0001');
    await user.click(save());
    await waitFor(() => expect(stories.savedBodies().at(-1)).toMatchObject({ displayName: 'Maria Souza', phone: '+55 (11) 99999-0001', channels: ['whatsapp'], active: true, email: null, name: null }));
  });

  it('puts the server 400 field errors on their fields', async () => {
    const user = userEvent.setup();
    render(<ServerRejects />);
    await user.type(box('Nome'), 'Maria');
    await user.click(save());
    expect(await screen.findByText('O telefone não pode ser alterado enquanto o contato tiver um atendimento ativo.')).toBeTruthy();
  });

  it('opens the Erro dialog with the server message for other failures', async () => {
    const user = userEvent.setup();
    render(<ServerFails />);
    await user.type(box('Nome'), 'Maria');
    await user.click(save());
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(messages.table.errorTitle);
    expect(dialog.textContent).toContain('Já existe um contato com este telefone.');
  });

  it('locks the phone of a contact in service and the admin-only switches for non-admins', () => {
    render(<EditLockedPhone />);
    expect((box('Telefone')).disabled).toBe(true);
    expect(screen.getAllByText(messages.registers.phoneLockedHint).length).toBeGreaterThan(0);
    expect((screen.getByRole('switch', { name: 'Ativo' }) as HTMLInputElement).disabled).toBe(true);
    expect((box('Nome')).disabled).toBe(false);
  });

  it('shows a record read-only without a save button', () => {
    render(<Show />);
    expect((box('Nome')).value).toBe('Maria Souza');
    expect((box('Nome')).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: messages.registers.save })).toBeNull();
  });

  it('renders a department with the pt-BR selection rules and time slots', async () => {
    const user = userEvent.setup();
    render(<Department />);
    // Two slots of start/end per weekday, each an HH:MM box.
    expect(document.querySelectorAll('input[placeholder="HH:MM"]').length).toBeGreaterThanOrEqual(28);
    await user.click(save());
    expect(await screen.findAllByText('Informe o nome de exibição')).toBeTruthy();
  });

  it("says 'blank keeps the current password' only when editing an agent, not on a new one", async () => {
    const keepsCurrent = 'Deixe em branco para manter a senha atual';
    const user = userEvent.setup();
    const created = render(<NewAgent />);
    const password = document.querySelector('input[type="password"]') as HTMLInputElement;
    expect(screen.queryByText(keepsCurrent)).toBeNull();
    await user.type(password, '123');
    await user.click(save());
    expect(await screen.findByText('A senha deve conter pelo menos 6 caracteres')).toBeTruthy();
    expect(screen.queryByText(keepsCurrent)).toBeNull();
    created.unmount();
    render(<EditAgent />);
    expect(screen.getByText(keepsCurrent)).toBeTruthy();
  });
});
