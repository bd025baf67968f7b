import { describe, expect, it, vi } from 'vitest';
import { composeStory } from '@storybook/react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import * as stories from './TemplateDialog.stories';
import { templateApi } from './TemplateDialog.stories';
import { buildTemplateSend, offeredTemplates } from './templates';
import { storyTemplates } from './whatsappFixtures';

function setup() {
  const api = templateApi();
  const onSend = vi.fn();
  const onClose = vi.fn();
  const Story = composeStory(stories.List, { ...stories.default, parameters: { api } } as Parameters<typeof composeStory>[1]);
  render(<Story onSend={onSend} onClose={onClose} />);
  return { api, onSend, onClose };
}

describe('TemplateDialog (seed 001 §2/§4/§5)', () => {
  it('offers only approved pt_BR/pt_PT templates outside the excluded names and without "undefined"', async () => {
    const { api } = setup();
    const list = await screen.findByRole('list', { name: 'Templates' });
    await waitFor(() => expect(within(list).getAllByRole('button')).toHaveLength(3));
    expect(within(list).getAllByRole('button').map((b) => b.getAttribute('data-template'))).toEqual(['aviso_portugal', 'boas_vindas', 'promocao_imagem']);
    expect(api.calls[0]!.path).toBe('/api/templates?channelId=wa-meta&status=APPROVED&limit=500');
    expect(offeredTemplates(storyTemplates, { hidden: ['aviso_portugal'], disableWithImages: true }).map((t) => t.name)).toEqual(['boas_vindas']);
  });

  it('lists templates by name as a person reads numbers: aviso_2 before aviso_10', () => {
    const base = storyTemplates.find((t) => t.name === 'boas_vindas')!;
    const named = ['aviso_10', 'boas_vindas', 'aviso_2', 'aviso_1'].map((name) => ({ ...base, name }));
    expect(offeredTemplates(named).map((t) => t.name)).toEqual(['aviso_1', 'aviso_2', 'aviso_10', 'boas_vindas']);
  });

  it("list → parameters ('Campo obrigatório') → send; 'Voltar' returns to the list", async () => {
    const { onSend, onClose } = setup();
    fireEvent.click(await screen.findByText('boas_vindas · pt_BR'));
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findAllByText('Campo obrigatório')).toHaveLength(3);
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Voltar' }));
    fireEvent.click(await screen.findByText('boas_vindas · pt_BR'));
    fireEvent.change(screen.getByLabelText('Cabeçalho {{1}}'), { target: { value: 'Maria' } });
    fireEvent.change(screen.getByLabelText('Parâmetro {{1}}'), { target: { value: 'Maria' } });
    fireEvent.change(screen.getByLabelText('Parâmetro {{2}}'), { target: { value: 'Ana' } });
    expect(document.querySelector('[data-template-preview]')!.textContent).toBe('Olá Maria, aqui é Ana da Acme. Podemos continuar?');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSend).toHaveBeenCalledWith({
      name: 'boas_vindas', language: 'pt_BR', text: 'Olá Maria, aqui é Ana da Acme. Podemos continuar?',
      components: [{ type: 'header', parameters: [{ type: 'text', text: 'Maria' }] }, { type: 'body', parameters: [{ type: 'text', text: 'Maria' }, { type: 'text', text: 'Ana' }] }],
    });
  });

  it('a media header takes an uploaded .png/.jpg/.jpeg/.pdf and is sent by link', async () => {
    const { api, onSend } = setup();
    fireEvent.click(await screen.findByText('promocao_imagem · pt_BR'));
    const input = screen.getByLabelText('Arquivo do cabeçalho') as HTMLInputElement;
    expect(input.accept).toBe('.png,.jpg,.jpeg,.pdf');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Campo obrigatório')).toBeTruthy();
    fireEvent.change(input, { target: { files: [new File(['x'], 'promo.png', { type: 'image/png' })] } });
    await waitFor(() => expect(document.querySelector('[data-header-file]')?.textContent).toBe('abc123.png'));
    expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/upload')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(onSend).toHaveBeenCalled());
    expect(onSend.mock.calls[0]![0]).toEqual(buildTemplateSend(storyTemplates[1]!, { headerMedia: '/api/files/demo/abc123.png' }));
    expect(onSend.mock.calls[0]![0].components).toEqual([{ type: 'header', parameters: [{ type: 'image', image: { link: '/api/files/demo/abc123.png' } }] }]);
  });
});
