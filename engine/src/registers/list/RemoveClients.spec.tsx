import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import { recordedCalls } from '../../stories/fakeApi';
import * as stories from './RemoveClients.stories';

const { ContactWithClients } = composeStories(stories);

describe('RemoveClientsDialog', () => {
  it("unlinks the ticked clients of a contact by their names and toasts the server's message", async () => {
    const user = userEvent.setup();
    render(<ContactWithClients />);
    await screen.findByText('Com Clientes', {}, { timeout: 5000 });
    const [withClients, withoutClients] = screen.getAllByRole('row').slice(1);
    expect(within(withoutClients!).queryByRole('button', { name: messages.registers.removeClients })).toBeNull();
    await user.click(within(withClients!).getByRole('button', { name: messages.registers.removeClients }));
    const dialog = await screen.findByRole('dialog', { name: messages.registers.removeClientsTitle });
    const confirm = within(dialog).getByRole('button', { name: messages.registers.removeClientsConfirm }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await user.click(await within(dialog).findByRole('checkbox', { name: 'ACME SA' }));
    await user.click(confirm);
    expect(await screen.findByText('Clientes removidos do contato.')).toBeTruthy();
    const call = recordedCalls().find((c) => c.method === 'PATCH')!;
    expect(call.path).toBe('/api/contacts/c1/removeClients');
    expect(call.body).toEqual({ clients: ['k1'] });
  });
});
