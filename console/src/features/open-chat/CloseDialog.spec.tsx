import { beforeEach, describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './CloseDialog.stories';
import { confirmedCloses } from './CloseDialog.stories';

const { WithJustifies, NoJustifies, NextContact, NoMessage, WithNps } = composeStories(stories);
const dialog = () => screen.getByRole('dialog');
const confirm = () => fireEvent.click(within(dialog()).getByRole('button', { name: 'Encerrar' }));

beforeEach(() => {
  confirmedCloses().length = 0;
});

describe('CloseDialog (seed 001 §4 "Closing")', () => {
  it("with justifications listed, asks for one ('Escolha uma justificativa de encerramento!') and sends the chosen one", async () => {
    const user = userEvent.setup();
    render(<WithJustifies />);
    expect(within(dialog()).getByText('Encerrar chat')).toBeTruthy();
    confirm();
    expect(within(dialog()).getByRole('alert').textContent).toBe(messages.chat.chooseCloseJustify);
    expect(within(dialog()).getByRole('alert').textContent).toBe('Escolha uma justificativa de encerramento!');
    // Refused on the spot: the dialog checks before calling back.
    expect(confirmedCloses()).toEqual([]);
    await user.click(within(dialog()).getByRole('combobox', { name: 'Justificativa' }));
    await user.click(screen.getByRole('option', { name: 'Resolvido' }));
    expect(within(dialog()).queryByRole('alert')).toBeNull();
    await user.type(within(dialog()).getByRole('textbox', { name: 'Observação' }), 'Pedido entregue');
    confirm();
    await waitFor(() => expect(confirmedCloses()).toEqual([{ closedBy: { justify: 'Resolvido', obs: 'Pedido entregue' } }]));
  });

  it('with none listed and reportOnly off ({reportOnly:false, justifies:[]}), closes without a justification', async () => {
    render(<NoJustifies />);
    expect(within(dialog()).queryByRole('combobox', { name: 'Justificativa' })).toBeNull();
    confirm();
    await waitFor(() => expect(confirmedCloses()).toEqual([{ closedBy: { justify: null, obs: null } }]));
    expect(within(dialog()).queryByRole('alert')).toBeNull();
  });

  it("checks the next-contact date against today (tenant time zone) and nextMaxDate", async () => {
    const user = userEvent.setup();
    render(<NextContact />);
    const date = within(dialog()).getByRole('textbox', { name: 'Próximo contato (DD/MM/AAAA)' });
    // The stories' now is 20/11/2026: a day before, a day past 30 days ahead, and a date that does not exist.
    for (const wrong of ['19/11/2026', '21/12/2026', '31/11/2026']) {
      await user.clear(date);
      await user.type(date, wrong);
      confirm();
      expect(within(dialog()).getByRole('alert').textContent, wrong).toBe(messages.chatServer.nextContactInvalid);
    }
    expect(confirmedCloses()).toEqual([]);
    await user.clear(date);
    await user.type(date, '20/12/2026');
    confirm();
    await waitFor(() => expect(confirmedCloses()).toEqual([{ closedBy: { justify: null, obs: null }, nextContact: '20/12/2026' }]));
  });

  it("titles 'Encerrar sem aviso' as such", () => {
    render(<NoMessage />);
    expect(within(dialog()).getByText('Encerrar chat sem aviso')).toBeTruthy();
  });

  it("titles the NPS survey close 'Encerrar com pesquisa NPS'", () => {
    render(<WithNps />);
    expect(within(dialog()).getByText(messages.survey.titleNps)).toBeTruthy();
  });
});
