import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { presence } from '../presence/presence';
import userEvent from '@testing-library/user-event';
import * as stories from './StatusMenu.stories';
import { recordedCalls } from '../stories/fakeApi';
import { messages } from '@atendimento/schemas';

const { Online, Away, Admin, ChosenOnAnotherDevice } = composeStories(stories);

const statusBodies = () => recordedCalls().filter((call) => call.path === '/api/users/u-agente/status').map((call) => (call.body as { status: string }).status);

describe('StatusMenu', () => {
  it("shows the agent's status and sends 'logon' on sign-in", () => {
    render(<Online />);
    expect(screen.getByRole('button', { name: 'Status: online' }).textContent).toContain('online');
    expect(statusBodies()).toEqual(['logon']);
    expect(screen.queryByRole('button', { name: 'Sincronizar Templates' })).toBeNull();
  });

  it('shows the status chosen earlier on this browser', () => {
    render(<Away />);
    expect(screen.getByRole('button', { name: 'Status: ausente' })).toBeTruthy();
  });

  it('follows a status chosen in another tab of this browser, and beats with it', async () => {
    render(<Online />);
    expect(screen.getByRole('button', { name: 'Status: online' })).toBeTruthy();
    // What another tab's choice looks like here: its storage write arrives as a 'storage' event.
    localStorage.setItem('atendimento.status.u-agente', 'ausente');
    act(() => void window.dispatchEvent(new StorageEvent('storage', { key: 'atendimento.status.u-agente', newValue: 'ausente', oldValue: 'online' })));
    expect(screen.getByRole('button', { name: 'Status: ausente' })).toBeTruthy();
    expect(presence.status).toBe('ausente');
    // Another key (another user, another setting) changes nothing.
    act(() => void window.dispatchEvent(new StorageEvent('storage', { key: 'outra.chave', newValue: 'offline' })));
    expect(screen.getByRole('button', { name: 'Status: ausente' })).toBeTruthy();
  });

  it('shows a status chosen on another device once a heartbeat answers with it', async () => {
    render(<ChosenOnAnotherDevice />);
    expect(screen.getByRole('button', { name: 'Status: online' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Status: ausente' })).toBeTruthy());
    const sent = recordedCalls().filter((call) => call.path === '/api/users/u-agente/status').map((call) => call.body as { status: string; heartbeat?: boolean });
    // 'logon', then heartbeats (only a choice in the bar is sent without the flag).
    expect(sent.slice(0, 2)).toEqual([{ status: 'logon' }, { status: 'online', heartbeat: true }]);
    expect(localStorage.getItem('atendimento.status.u-agente')).toBe('ausente');
  });

  it("lists the tenant's statuses in order and sends the chosen one", async () => {
    render(<Online />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Status: online' }));
    // The menu loads when it first opens (LazyMenu).
    const options = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    // Every status but online says, before the choice, that unanswered chats go back to the queue.
    const hint = messages.presence.awayReturnsChats;
    expect(options).toEqual(['online', `ausente${hint}`, `offline${hint}`]);
    await user.click(screen.getByRole('menuitem', { name: /^ausente/ }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Status: ausente' })).toBeTruthy());
    expect(statusBodies()).toEqual(['logon', 'ausente']);
    expect(localStorage.getItem('atendimento.status.u-agente')).toBe('ausente');
  });

  it("gives admins 'Sincronizar Templates'", async () => {
    render(<Admin />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sincronizar Templates' }));
    await waitFor(() => expect(recordedCalls().some((call) => call.path === '/api/cronjob/proccess/syncTemplates')).toBe(true));
  });
});
