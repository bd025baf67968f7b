import { beforeEach, describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './OnHoldDialog.stories';
import { confirmedHolds } from './OnHoldDialog.stories';

const { Choose, Empty } = composeStories(stories);
const dialog = () => screen.getByRole('dialog', { name: 'Chat em espera' });

beforeEach(() => {
  confirmedHolds().length = 0;
});

describe("OnHoldDialog ('Chat em espera', seed 001 §4)", () => {
  it('asks for a message, searches from 2 characters and confirms the chosen one', async () => {
    const user = userEvent.setup();
    render(<Choose />);
    await user.click(within(dialog()).getByRole('button', { name: 'Confirmar' }));
    expect(within(dialog()).getByRole('alert').textContent).toBe(messages.chatServer.onHoldMessageRequired);
    const search = within(dialog()).getByRole('textbox', { name: 'Buscar' });
    await user.type(search, 's');
    expect(within(dialog()).getAllByRole('radio')).toHaveLength(2);
    await user.type(search, 'is');
    expect(within(dialog()).getAllByRole('radio')).toHaveLength(1);
    await user.click(within(dialog()).getByRole('radio', { name: 'Estou consultando o sistema, já retorno.' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(confirmedHolds()).toEqual(['Estou consultando o sistema, já retorno.']));
  });

  it('says the list is empty without fixed messages', () => {
    render(<Empty />);
    expect(within(dialog()).getByText(messages.chat.emptyList)).toBeTruthy();
    expect(within(dialog()).getByRole('button', { name: 'Cancelar' })).toBeTruthy();
  });
});
