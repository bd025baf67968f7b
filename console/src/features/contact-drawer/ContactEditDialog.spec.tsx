import { describe, expect, it, vi } from 'vitest';
import { composeStories, composeStory } from '@storybook/react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import * as stories from './ContactEditDialog.stories';
import { contactApi } from './ContactEditDialog.stories';
import * as drawerStories from './ContactDrawer.stories';

const s = composeStories(stories);
const d = composeStories(drawerStories);

const dialog = () => screen.findByRole('dialog', { name: 'Editar Contato' });
const field = (name: string) => document.querySelector(`[data-field="${name}"]`) as HTMLInputElement;
const switchOf = (label: string) => screen.getByRole('switch', { name: label }) as HTMLInputElement;

function withApi(story: typeof stories.AsAgent, onClose = vi.fn()) {
  const api = contactApi();
  const Story = composeStory(story, { ...stories.default, parameters: { ...story.parameters, api } } as Parameters<typeof composeStory>[1]);
  return { api, onClose, ...render(<Story onClose={onClose} />) };
}

describe("ContactEditDialog (seed 001 §2 'Editar Contato')", () => {
  it("shows the seed's fields with the contact's values; an agent cannot touch Ativo, the blocks or the locked phone", async () => {
    render(<s.AsAgent />);
    await dialog();
    await waitFor(() => expect(field('displayName').value).toBe('Maria Souza'));
    expect(field('name').value).toBe('Maria Aparecida Souza');
    expect(field('email').value).toBe('maria@exemplo.com.br');
    expect(field('phone').disabled).toBe(true);
    expect(screen.getByText('Telefone bloqueado: o contato tem um atendimento ativo.')).toBeTruthy();
    for (const label of ['Ativo', 'Envio de mensagens', 'Recebimento de mensagens']) expect(switchOf(label).disabled).toBe(true);
    expect(screen.getByText('Bloqueios')).toBeTruthy();
    expect(screen.getByText('Somente administradores podem alterar este campo.')).toBeTruthy();
  });

  it("saves only what changed and toasts 'Contato atualizado com sucesso'", async () => {
    const { api, onClose } = withApi(stories.AsAgent);
    await dialog();
    await waitFor(() => expect(field('displayName').value).toBe('Maria Souza'));
    fireEvent.change(field('displayName'), { target: { value: 'Maria S.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Contato atualizado com sucesso')).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'PATCH')).toEqual([{ method: 'PATCH', path: '/api/rooms/room-1/contact', body: { displayName: 'Maria S.' } }]);
    expect(onClose).toHaveBeenCalled();
  });

  it("a failed save toasts 'Erro ao atualizar contato' and shows the field's message", async () => {
    const { onClose } = withApi(stories.AsAgent);
    await dialog();
    await waitFor(() => expect(field('email').value).toBe('maria@exemplo.com.br'));
    fireEvent.change(field('email'), { target: { value: 'maria@exemplo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Erro ao atualizar contato')).toBeTruthy();
    expect(screen.getByText('Informe um e-mail válido')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('an admin toggles the blocks', async () => {
    const { api } = withApi(stories.AsAdmin);
    await dialog();
    await waitFor(() => expect(switchOf('Envio de mensagens').disabled).toBe(false));
    fireEvent.click(switchOf('Envio de mensagens'));
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ blockedSending: true }));
  });

  it("'Selecionar Todos' ticks every channel, and clears them when all were ticked", async () => {
    const { api } = withApi(stories.AsAdmin);
    await dialog();
    await waitFor(() => expect(field('displayName').value).toBe('Maria Souza'));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Canais' }));
    const list = await screen.findByRole('listbox');
    const channels = within(list).getAllByRole('option').filter((o) => o.textContent !== 'Selecionar Todos');
    expect(channels.length).toBeGreaterThan(1);
    fireEvent.click(within(list).getByRole('option', { name: 'Selecionar Todos' }));
    await waitFor(() => expect(within(list).getAllByRole('checkbox').every((c) => (c as HTMLInputElement).checked)).toBe(true));
    fireEvent.click(within(list).getByRole('option', { name: 'Selecionar Todos' }));
    await waitFor(() => expect(within(list).getAllByRole('checkbox').some((c) => (c as HTMLInputElement).checked)).toBe(false));
    fireEvent.click(within(list).getByRole('option', { name: 'Selecionar Todos' }));
    fireEvent.keyDown(list, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect((api.calls.find((c) => c.method === 'PATCH')?.body as { channels?: string[] } | undefined)?.channels).toHaveLength(channels.length));
  });

  it('a blocked contact is read-only for an agent', async () => {
    render(<s.BlockedAsAgent />);
    const agentView = await dialog();
    await waitFor(() => expect(field('displayName').value).toBe('Contato Bloqueado Teste'));
    expect(field('displayName').disabled).toBe(true);
    expect(within(agentView).getByText('Contato Bloqueado: somente administradores podem alterar este contato.')).toBeTruthy();
    expect((within(agentView).getByRole('button', { name: 'Enviar' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('is opened from the contact drawer, whose button is disabled for a blocked contact unless admin', async () => {
    render(<d.BlockedContact />);
    expect((screen.getByRole('button', { name: 'Editar Contato' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
