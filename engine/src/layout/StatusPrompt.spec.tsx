import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './StatusPrompt.stories';
import { recordedCalls } from '../stories/fakeApi';

const { EnteringAway, EnteringOnline, UnknownStatus } = composeStories(stories);

const PROMPT = 'Você está entrando no sistema com o status ausente. Gostaria de atualizar seu status para ONLINE?';
const statusBodies = () => recordedCalls().filter((call) => call.path === '/api/users/u-agente/status').map((call) => (call.body as { status: string }).status);

describe('StatusPrompt', () => {
  it('asks an agent entering with a non-online status to go ONLINE, with the seed text', async () => {
    render(<EnteringAway />);
    // The dialog loads when it first opens (LazyDialog).
    expect((await screen.findByRole('dialog')).textContent).toContain(PROMPT);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(statusBodies()).toEqual(['logon', 'online']);
  });

  it('keeps the status on Cancelar', async () => {
    render(<EnteringAway />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(statusBodies()).toEqual(['logon']);
    expect(localStorage.getItem('atendimento.status.u-agente')).toBe('ausente');
  });

  it('does not ask an agent entering online, nor for a status the tenant does not list', async () => {
    // The dialog's module is lazy: give an opening dialog the time to load before saying there is none.
    const settle = () => act(async () => {
      await import('@mui/material/Dialog');
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    const first = render(<EnteringOnline />);
    await settle();
    expect(screen.queryByRole('dialog'), 'online').toBeNull();
    first.unmount();
    render(<UnknownStatus />);
    await settle();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
