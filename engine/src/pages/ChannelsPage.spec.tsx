import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './ChannelsPage.stories';
import { recordedCalls } from '../stories/fakeApi';

const { Default, Empty, InvalidSave } = composeStories(stories);

const dialog = () => screen.getByRole('dialog');

describe('ChannelsPage', () => {
  it('lists channels with type and department; a secret is never shown, only whether it is set', async () => {
    const user = userEvent.setup();
    render(<Default />);
    expect(await screen.findByText('WhatsApp Comercial')).toBeTruthy();
    expect(screen.getByText('Chat do site')).toBeTruthy();
    expect(screen.getAllByText('Comercial').length).toBe(2);
    await user.click(screen.getByRole('button', { name: 'Editar canal WhatsApp Comercial' }));
    const token = within(dialog()).getByLabelText('Token de acesso') as HTMLInputElement;
    expect(token.value).toBe('');
    expect(token.type).toBe('password');
    expect(within(dialog()).getAllByText('Definido. Deixe em branco para manter o atual.').length).toBe(2);
    expect((within(dialog()).getByLabelText('URL do webhook') as HTMLInputElement).value).toBe('https://acme.atendimento.app/api/webhooks/whatsapp/ch-meta');
    expect((within(dialog()).getByLabelText('Token de verificação do webhook') as HTMLInputElement).value).toBe('a1b2c3d4e5');
  });

  it('replacing a webhook secret says the old one keeps working for 24 hours; other secrets do not', async () => {
    const user = userEvent.setup();
    render(<Default />);
    await user.click(await screen.findByRole('button', { name: 'Editar canal WhatsApp Comercial' }));
    const rotated = 'O valor anterior continua aceito nos webhooks por 24 horas.';
    expect(within(dialog()).queryByText(rotated)).toBeNull();
    await user.type(within(dialog()).getByLabelText('Token de acesso'), 'novo-token');
    expect(within(dialog()).queryByText(rotated)).toBeNull();
    await user.type(within(dialog()).getByLabelText('Chave secreta do app'), 'novo-segredo');
    expect(within(dialog()).getByText(rotated)).toBeTruthy();
  });

  it("'Testar conexão' shows the provider's answer in Portuguese", async () => {
    const user = userEvent.setup();
    render(<Default />);
    await user.click(await screen.findByRole('button', { name: 'Editar canal WhatsApp Comercial' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Testar conexão' }));
    expect((await within(dialog()).findByRole('status')).textContent).toMatch(/^Conexão bem-sucedida/);
  });

  it('adds a Meta channel: the typed secrets go once, the answer shows the webhook URL', async () => {
    const user = userEvent.setup();
    render(<Empty />);
    expect(await screen.findByText('Nenhum canal cadastrado.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Novo canal' }));
    const typeIn = (label: RegExp, value: string) => fireEvent.change(within(dialog()).getByLabelText(label), { target: { value } });
    typeIn(/^Nome/, 'WhatsApp Vendas');
    typeIn(/^ID do número de telefone/, '555');
    typeIn(/^ID da conta do WhatsApp Business/, '777');
    typeIn(/^Token de acesso/, 'tok-secreto');
    typeIn(/^Chave secreta do app/, 'app-secreto');
    await user.click(within(dialog()).getByRole('button', { name: 'Salvar' }));
    const url = (await within(dialog()).findByLabelText('URL do webhook')) as HTMLInputElement;
    expect(url.value).toBe('https://acme.atendimento.app/api/webhooks/whatsapp/ch-novo-1');
    const post = recordedCalls().find((c) => c.method === 'POST' && c.path === '/api/admin/channels')!;
    expect(post.body).toMatchObject({ type: 'meta', displayName: 'WhatsApp Vendas', settings: { phoneNumberId: '555', businessAccountId: '777', accessToken: 'tok-secreto', appSecret: 'app-secreto' } });
    expect((within(dialog()).getByLabelText(/^Token de acesso/) as HTMLInputElement).value).toBe('');
  });

  it('the web chat shows its snippet with a copy button and a live preview of what is typed', async () => {
    const user = userEvent.setup();
    render(<Default />);
    await user.click(await screen.findByRole('button', { name: 'Editar canal Chat do site' }));
    expect((within(dialog()).getByLabelText('Código para colar no site') as HTMLTextAreaElement).value).toBe('<script src="https://acme.atendimento.app/api/webchat/ch-site/widget.js" async></script>');
    expect(within(dialog()).getByRole('button', { name: 'Copiar Código para colar no site' })).toBeTruthy();
    fireEvent.change(within(dialog()).getByLabelText('Título'), { target: { value: 'Loja Acme' } });
    expect(screen.getByTestId('webchat-preview-title').textContent).toBe('Loja Acme');
  });

  it('server validation messages land under their fields', async () => {
    const user = userEvent.setup();
    render(<InvalidSave />);
    await user.click(await screen.findByRole('button', { name: 'Novo canal' }));
    fireEvent.change(within(dialog()).getByLabelText(/^Nome/), { target: { value: 'X' } });
    await user.click(within(dialog()).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog()).findByText('Informe ID do número de telefone')).toBeTruthy();
  });
});
