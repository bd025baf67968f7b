import { describe, expect, it, vi } from 'vitest';
import { composeStories, composeStory } from '@storybook/react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import * as stories from './ActiveMessageDialog.stories';
import { activeApi } from './ActiveMessageDialog.stories';
import { optionsSingleClosed } from './whatsappFixtures';
import { StoryConsole } from '../../fixtures/StoryConsole';
import { ActiveMessageButton } from './ActiveMessageDialog';
import { agentUser, contacts, rooms } from '../../fixtures/chatFixtures';

const s = composeStories(stories);

function withApi(story: typeof stories.ChooseChannelAndDepartment, api: ReturnType<typeof activeApi>) {
  return composeStory(story, { ...stories.default, parameters: { api } } as Parameters<typeof composeStory>[1]);
}

async function choose(label: string, option: string) {
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: label }));
  fireEvent.click(within(await screen.findByRole('listbox')).getByText(option));
}

describe("'Mensagem Ativa' dialog (seed 001 §2, §5)", () => {
  it("asks for the number, then the department, with the seed's texts, and sends the text", async () => {
    const api = activeApi();
    const onOpened = vi.fn();
    const Story = withApi(stories.ChooseChannelAndDepartment, api);
    render(<Story onOpened={onOpened} />);
    fireEvent.change(await screen.findByLabelText('Mensagem'), { target: { value: 'Olá Maria!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Selecione o número para continuar o atendimento');
    await choose('Número', 'WhatsApp Comercial (5511999990000)');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Selecione um departamento para continuar o atendimento');
    await choose('Departamento', 'Vendas');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(onOpened).toHaveBeenCalledWith(expect.objectContaining({ id: 'room-77' })));
    const post = api.calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/api/rooms/activeMessage');
    expect(post.body).toMatchObject({ contactId: 'contact-1', channelId: 'wa-meta', departmentId: 'vendas', text: 'Olá Maria!' });
    expect(typeof (post.body as { clientId: string }).clientId).toBe('string');
  });

  it('preselects a single number; outside the 24-hour window only a template goes', async () => {
    const api = activeApi(optionsSingleClosed);
    const onOpened = vi.fn();
    render(withApi(stories.OutsideWindow, api)({ onOpened }) as never);
    expect(await screen.findByText('Fora da janela de 24 horas: só é possível iniciar a conversa com um template.')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Número' }).textContent).toBe('WhatsApp Comercial (5511999990000)');
    expect(screen.queryByLabelText('Mensagem')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Enviar' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Escolher template' }));
    fireEvent.click(await screen.findByText('aviso_portugal · pt_PT'));
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(onOpened).toHaveBeenCalled());
    const post = api.calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({ contactId: 'contact-1', channelId: 'wa-meta', template: { name: 'aviso_portugal', language: 'pt_PT', text: 'Texto de aviso_portugal.' } });
    expect(post.body).not.toHaveProperty('departmentId');
  });

  it('shows the server refusal in the dialog', async () => {
    const api = activeApi();
    const routes = api.request.bind(api);
    api.request = (async (path: string, options?: { method?: string }) => {
      if (options?.method === 'POST') {
        await routes(path, options as never);
        throw new Error('Fora da janela de 24 horas: o contato não responde há mais de 24 horas. Envie um template para retomar a conversa.');
      }
      return routes(path, options as never);
    }) as typeof api.request;
    render(withApi(stories.ChooseChannelAndDepartment, api)({}) as never);
    await choose('Número', 'WhatsApp Comercial (5511999990000)');
    await choose('Departamento', 'Suporte');
    fireEvent.change(screen.getByLabelText('Mensagem'), { target: { value: 'Oi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Fora da janela de 24 horas');
  });

  it("the drawer's button shows for a WhatsApp contact with the claim; not without it, nor for a blocked contact", async () => {
    render(<s.DrawerButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Mensagem Ativa' }));
    expect(await screen.findByRole('dialog', { name: 'Mensagem Ativa' })).toBeTruthy();
  });

  it('hides the button without the claim or for a blocked contact', () => {
    const { container } = render(
      <StoryConsole user={agentUser}><ActiveMessageButton room={rooms[0]!} contact={contacts[0]} /></StoryConsole>,
    );
    expect(container.querySelector('button')).toBeNull();
    render(<StoryConsole user={{ ...agentUser, claims: { allowActiveMessage: true } }}><ActiveMessageButton room={rooms[0]!} contact={contacts[1]} /></StoryConsole>);
    expect(screen.queryByRole('button', { name: 'Mensagem Ativa' })).toBeNull();
  });
});
