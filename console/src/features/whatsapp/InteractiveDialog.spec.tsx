import { describe, expect, it, vi } from 'vitest';
import { composeStory } from '@storybook/react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import * as stories from './InteractiveDialog.stories';
import { interactiveApi } from './InteractiveDialog.stories';
import { templateApi } from './TemplateDialog.stories';
import * as composerStories from '../composer/Composer.stories';
import { openRoom } from '../../fixtures/conversation';

function setup() {
  const api = interactiveApi();
  const onClose = vi.fn();
  const Story = composeStory(stories.Compose, { ...stories.default, parameters: { api } } as Parameters<typeof composeStory>[1]);
  render(<Story onClose={onClose} />);
  return { api, onClose };
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('InteractiveDialog (buttons and list)', () => {
  it("buttons: 'Campo obrigatório' on empty fields, then the Cloud API body goes to the room", async () => {
    const { api, onClose } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findAllByText('Campo obrigatório')).toHaveLength(2);
    type('Texto', 'Confirma a entrega amanhã?');
    type('Botão 1', 'Sim');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar botão' }));
    type('Botão 2', 'Não');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar botão' }));
    type('Botão 3', 'Remarcar');
    expect(screen.queryByRole('button', { name: 'Adicionar botão' })).toBeNull();
    type('Rodapé (opcional)', 'Acme');
    expect(document.querySelector('[data-interactive-preview]')!.textContent).toContain('Remarcar');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = api.calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/api/rooms/room-2/message/interactive');
    expect(post.body).toMatchObject({
      interactive: {
        type: 'button', body: { text: 'Confirma a entrega amanhã?' }, footer: { text: 'Acme' },
        action: { buttons: [{ type: 'reply', reply: { id: 'botao_1', title: 'Sim' } }, { type: 'reply', reply: { id: 'botao_2', title: 'Não' } }, { type: 'reply', reply: { id: 'botao_3', title: 'Remarcar' } }] },
      },
    });
    expect((screen.getByLabelText('Botão 1') as HTMLInputElement).maxLength).toBe(20);
  });

  it('list: button label and options (title, description) in one section', async () => {
    const { api } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Lista' }));
    type('Texto', 'Escolha o assunto');
    type('Texto do botão da lista', 'Ver opções');
    type('Opção 1', 'Status do pedido');
    type('Descrição da opção 1 (opcional)', 'Onde está meu pedido');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar opção' }));
    type('Opção 2', 'Troca');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(api.calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      interactive: { type: 'list', body: { text: 'Escolha o assunto' }, action: { button: 'Ver opções', sections: [{ rows: [{ id: 'opcao_1', title: 'Status do pedido', description: 'Onde está meu pedido' }, { id: 'opcao_2', title: 'Troca' }] }] } },
    });
  });

  it("the composer offers 'Template' and 'Mensagem interativa' on WhatsApp chats only", async () => {
    const Composer = composeStory(composerStories.Empty, composerStories.default);
    const { unmount } = render(<Composer room={{ ...openRoom, channel: 'meta', channelId: 'wa-meta' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Anexar' }));
    expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['Fotos e vídeos', 'Documento', 'Áudio', 'Template', 'Mensagem interativa']);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mensagem interativa' }));
    expect(await screen.findByRole('dialog', { name: 'Mensagem interativa' })).toBeTruthy();
    unmount();
    render(<Composer room={{ ...openRoom, channel: 'zApi', channelId: 'wa-zapi' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Anexar' }));
    expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['Fotos e vídeos', 'Documento', 'Áudio', 'Mensagem interativa']);
  });

  it('a template from the composer goes to POST /api/rooms/:id/message/template', async () => {
    const api = composerStories.composerApi();
    const answers = templateApi();
    const request = api.request.bind(api);
    api.request = ((path: string, options?: object) => (path.startsWith('/api/templates') ? answers.request(path, options as never) : request(path, options as never))) as typeof api.request;
    const Composer = composeStory(composerStories.Empty, { ...composerStories.default, parameters: { api } } as Parameters<typeof composeStory>[1]);
    render(<Composer room={{ ...openRoom, channel: 'meta', channelId: 'wa-meta' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Anexar' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Template' }));
    fireEvent.click(await screen.findByText('aviso_portugal · pt_PT'));
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(api.calls.some((c) => c.path.endsWith('/message/template'))).toBe(true));
    const post = api.calls.find((c) => c.path.endsWith('/message/template'))!;
    expect(post.path).toBe(`/api/rooms/${openRoom.id}/message/template`);
    expect(post.body).toMatchObject({ template: { name: 'aviso_portugal', language: 'pt_PT', text: 'Texto de aviso_portugal.' } });
  });
});
