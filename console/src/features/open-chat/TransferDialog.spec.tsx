import { beforeEach, describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './TransferDialog.stories';
import { confirmedTransfers } from './TransferDialog.stories';

const { ToAgents, ToAgentsWithJustify, ToQueues, Loading } = composeStories(stories);
const dialog = () => screen.getByRole('dialog');
const confirm = () => fireEvent.click(within(dialog()).getByRole('button', { name: 'Transferir' }));

beforeEach(() => {
  confirmedTransfers().length = 0;
});

describe('TransferDialog (seed 001 §4 "Transfer", §5, §6)', () => {
  it("asks for an agent ('Escolha agentes para transferir!'), clears the alert on choosing, and sends remainInChat", async () => {
    const user = userEvent.setup();
    render(<ToAgents />);
    confirm();
    expect(within(dialog()).getByRole('alert').textContent).toBe(messages.chat.chooseAgents);
    expect(confirmedTransfers()).toEqual([]);
    await user.click(within(dialog()).getByRole('checkbox', { name: 'Bia Suporte' }));
    expect(within(dialog()).queryByRole('alert')).toBeNull();
    await user.click(within(dialog()).getByLabelText('Permanecer no chat'));
    await user.type(within(dialog()).getByRole('textbox', { name: 'Observação' }), 'cliente de suporte');
    confirm();
    await waitFor(() => expect(confirmedTransfers()).toEqual([{ kind: 'agents', input: { agents: ['bia'], remainInChat: false, transferJustify: { justify: null, obs: 'cliente de suporte' } } }]));
  });

  it('lists an offline agent as not selectable', () => {
    render(<ToAgents />);
    const offline = within(dialog()).getByRole('checkbox', { name: 'Caio Vendas' }).closest('[role="button"]')!;
    expect(offline.getAttribute('aria-disabled')).toBe('true');
  });

  it("requires a justification when the tenant lists them ('Escolha uma justificativa para transferir!')", async () => {
    const user = userEvent.setup();
    render(<ToAgentsWithJustify />);
    await user.click(within(dialog()).getByRole('checkbox', { name: 'Bia Suporte' }));
    confirm();
    expect(within(dialog()).getByRole('alert').textContent).toBe(messages.chat.chooseTransferJustify);
    await user.click(within(dialog()).getByRole('combobox', { name: 'Justificativa' }));
    await user.click(screen.getByRole('option', { name: 'Cliente pediu' }));
    confirm();
    await waitFor(() => expect(confirmedTransfers()[0]).toMatchObject({ kind: 'agents', input: { agents: ['bia'], transferJustify: { justify: 'Cliente pediu' } } }));
  });

  it("moves to a queue; a queue without anyone online is marked and cannot be chosen", async () => {
    const user = userEvent.setup();
    render(<ToQueues />);
    expect(within(dialog()).getByText('Filas')).toBeTruthy();
    expect(within(dialog()).getAllByText(messages.transfer.noOnline).length).toBeGreaterThan(0);
    expect(within(dialog()).queryByLabelText('Permanecer no chat')).toBeNull();
    await user.click(within(dialog()).getByRole('checkbox', { name: 'Suporte' }));
    confirm();
    await waitFor(() => expect(confirmedTransfers()).toEqual([{ kind: 'queues', input: { queues: ['deptosuporte'], transferJustify: { justify: null, obs: null } } }]));
  });

  it('cannot confirm while the targets load', () => {
    render(<Loading />);
    expect((within(dialog()).getByRole('button', { name: 'Transferir' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
