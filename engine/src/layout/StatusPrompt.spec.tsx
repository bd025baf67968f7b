import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './StatusPrompt.stories';
import { recordedCalls } from '../stories/fakeApi';

const { EnteringAway, EnteringOnline, UnknownStatus } = composeStories(stories);

const PROMPT = 'Você está entrando no sistema com o status ausente. Gostaria de atualizar seu status para ONLINE?';
const statusBodies = () => recordedCalls().filter((call) => call.path === '/api/users/u-agente/status').map((call) => (call.body as { status: string }).status);

describe('StatusPrompt', () => {
  it('asks an agent entering with a non-online status to go ONLINE, with the seed text', async () => {
    render(<EnteringAway />);
    expect(screen.getByRole('dialog').textContent).toContain(PROMPT);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(statusBodies()).toEqual(['logon', 'online']);
  });

  it('keeps the status on Cancelar', async () => {
    render(<EnteringAway />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(statusBodies()).toEqual(['logon']);
    expect(localStorage.getItem('atendimento.status.u-agente')).toBe('ausente');
  });

  it('does not ask an agent entering online, nor for a status the tenant does not list', () => {
    const first = render(<EnteringOnline />);
    expect(screen.queryByRole('dialog'), 'online').toBeNull();
    first.unmount();
    render(<UnknownStatus />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
