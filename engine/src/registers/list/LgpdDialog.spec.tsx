import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import { recordedCalls } from '../../stories/fakeApi';
import * as stories from './LgpdDialog.stories';

const { AdminErasesAContact, AgentWithContactsClaim } = composeStories(stories);
const t = messages.lgpd;

describe('LgpdDialog', () => {
  it('erases only after the server\'s code and the typed word APAGAR: two confirmations', async () => {
    const user = userEvent.setup();
    render(<AdminErasesAContact />);
    await screen.findByText('Maria Titular', {}, { timeout: 5000 });
    const [row] = screen.getAllByRole('row').slice(1);
    await user.click(within(row!).getByRole('button', { name: t.action }));
    const dialog = await screen.findByRole('dialog', { name: 'Dados pessoais de Maria Titular (LGPD)' });
    await user.click(within(dialog).getByRole('button', { name: t.eraseButton }));
    expect(await within(dialog).findByText(/2 atendimento\(s\) e 14 mensagem\(ns\) de Maria Titular serão anonimizados/)).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: t.eraseConfirmButton }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await user.type(within(dialog).getByLabelText(t.eraseTypeLabel), 'apagar');
    expect(confirm.disabled).toBe(true);
    await user.clear(within(dialog).getByLabelText(t.eraseTypeLabel));
    await user.type(within(dialog).getByLabelText(t.eraseTypeLabel), 'APAGAR');
    await user.click(confirm);
    expect(await screen.findByText(t.erased)).toBeTruthy();
    const erases = recordedCalls().filter((c) => c.method === 'POST' && c.path === '/api/lgpd/contacts/c1/erase');
    expect(erases.map((c) => c.body)).toEqual([{}, { confirmationToken: 'codigo-assinado', confirmation: 'APAGAR' }]);
  });

  it('is not offered to an agent who only has the contacts screen', async () => {
    render(<AgentWithContactsClaim />);
    await screen.findByText('Maria Titular', {}, { timeout: 5000 });
    const [row] = screen.getAllByRole('row').slice(1);
    expect(within(row!).queryByRole('button', { name: t.action })).toBeNull();
  });
});
