import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import { recordedCalls } from '../stories/fakeApi';
import { currentToasts, subscribeToasts } from '../ui/toast';
import * as stories from './IntegrationPages.stories';

const { List, Create, Edit, DocumentFailed, NotAllowed, EmptyList, CreateWithItems, DocumentWithParams } = composeStories(stories);

// jsdom has no object URLs; the dialog only needs one to exist.
URL.createObjectURL ??= () => 'blob:documento';
URL.revokeObjectURL ??= () => undefined;

describe('IntegrationPages', () => {
  it('lists the records of the integration from /api/integration/{collection}', async () => {
    render(<List />);
    await screen.findByText('Padaria Pão de Mel', {}, { timeout: 5000 });
    expect(screen.getByText('Mercado Boa Vista')).toBeTruthy();
    for (const header of ['Número', 'Cliente', 'Quantidade']) expect(screen.getByRole('columnheader', { name: new RegExp(header) })).toBeTruthy();
    expect(recordedCalls().some((call) => call.method === 'GET' && call.path.startsWith('/api/integration/pedidos?'))).toBe(true);
  });

  it('generates the form in field order, shows the pt-BR error, then posts the record', async () => {
    const user = userEvent.setup();
    render(<Create />);
    const numero = await screen.findByRole('textbox', { name: /^Número/ }, { timeout: 5000 });
    const labels = screen.getAllByRole('textbox').map((box) => box.getAttribute('id'));
    expect(labels.indexOf(numero.getAttribute('id'))).toBe(0);
    await user.type(numero, '2001');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(await screen.findByText('Informe o cliente')).toBeTruthy();
    expect(recordedCalls().some((call) => call.method === 'POST')).toBe(false);
    await user.type(screen.getByRole('textbox', { name: /^Cliente/ }), 'Açougue Central');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(await screen.findByText(messages.table.saved)).toBeTruthy();
    const post = recordedCalls().find((call) => call.method === 'POST')!;
    expect(post.path).toBe('/api/integration/pedidos');
    expect(post.body).toMatchObject({ numero: '2001', cliente: 'Açougue Central' });
  });

  it('loads a record into the generated form', async () => {
    render(<Edit />);
    await waitFor(() => expect((screen.getByRole('textbox', { name: /^Cliente/ }) as HTMLInputElement).value).toBe('Mercado Boa Vista'), { timeout: 5000 });
  });

  it('generates a call-to-action document: waiting toast, then the file in a dialog', async () => {
    const user = userEvent.setup();
    render(<Edit />);
    const shown: string[] = [];
    const stop = subscribeToasts(() => shown.push(...currentToasts().map((toast) => toast.message)));
    await user.click(await screen.findByRole('button', { name: 'Pedido em PDF' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'pedido-1002.pdf' });
    stop();
    expect(dialog).toBeTruthy();
    expect(shown).toContain(messages.documents.generating);
    // The waiting toast goes once the document is there.
    await waitFor(() => expect(screen.queryByText(messages.documents.generating)).toBeNull());
    expect(recordedCalls().some((call) => call.method === 'POST' && call.path === '/api/integration/pedidos/1002/documents/0')).toBe(true);
  });

  it("says 'Falha ao gerar o documento' when the ERP gives no link", async () => {
    const user = userEvent.setup();
    render(<DocumentFailed />);
    await user.click(await screen.findByRole('button', { name: 'Pedido em PDF' }, { timeout: 5000 }));
    expect(await screen.findByText(messages.documents.failed)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('tells a user the server gives no such integration that the screen is not theirs', async () => {
    render(<NotAllowed />);
    expect(await screen.findByText(messages.auth.forbidden, {}, { timeout: 5000 })).toBeTruthy();
  });

  it("shows the integration's noItems text in an empty list", async () => {
    render(<EmptyList />);
    expect(await screen.findByText('Nenhum pedido ainda', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByText(messages.table.empty)).toBeNull();
  });

  it('generates a sub-form per item from vjsfSchemaItens', async () => {
    const user = userEvent.setup();
    render(<CreateWithItems />);
    await screen.findByRole('textbox', { name: /^Número/ }, { timeout: 5000 });
    expect(screen.getByText('Produtos')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /^Produto/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Adicionar item' }));
    expect(await screen.findByRole('textbox', { name: /^Produto/ })).toBeTruthy();
  });

  it('asks the vjsfSchemaParams parameters before the document, shows the refusal under the field, then sends them', async () => {
    const user = userEvent.setup();
    render(<DocumentWithParams />);
    await user.click(await screen.findByRole('button', { name: 'Pedido em PDF' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Pedido em PDF · Parâmetros' });
    expect(recordedCalls().some((call) => call.path.includes('/documents/'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await within(dialog).findByText('Informe de 1 a 5 cópias')).toBeTruthy();
    await user.type(within(dialog).getByRole('spinbutton', { name: /^Cópias/ }), '2');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Urgente' }));
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByRole('dialog', { name: 'pedido-1002.pdf' })).toBeTruthy();
    const posts = recordedCalls().filter((call) => call.method === 'POST' && call.path === '/api/integration/pedidos/1002/documents/0');
    expect(posts.map((call) => call.body)).toEqual([{ params: { urgente: false } }, { params: { copias: 2, urgente: true } }]);
  });
});
