import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import { recordedCalls } from '../../stories/fakeApi';
import * as stories from './RegisterList.stories';

const { Contacts, Empty, ReadOnly, NotAllowed, AgentsAsAdmin } = composeStories(stories);
const rows = () => screen.getAllByRole('row').slice(1);
const listCalls = () => recordedCalls().filter((call) => call.method === 'GET' && call.path.startsWith('/api/contacts?'));

describe('RegisterList', () => {
  it('lists the first page with the definition columns, server-side', async () => {
    render(<Contacts />);
    await screen.findByText('Contato 01', {}, { timeout: 5000 });
    expect(rows()).toHaveLength(10);
    for (const header of ['Nome', 'Telefone', 'E-mail', 'Canais', 'Ativo']) expect(screen.getByRole('columnheader', { name: new RegExp(header) })).toBeTruthy();
    // Chip titles come from the schema's options.
    expect(screen.getAllByText('Webchat').length).toBeGreaterThan(0);
    // Phones as the console writes them (stored as digits: 5511999990001).
    expect(screen.getByText('+55 (11) 99999.0001')).toBeTruthy();
    const params = new URLSearchParams(listCalls()[0]!.path.split('?')[1]);
    expect(JSON.parse(params.get('range')!)).toEqual([0, 9]);
    expect(JSON.parse(params.get('sort')!)).toEqual(['displayName', 'ASC']);
    expect(screen.getByText(/1-10 de 12/)).toBeTruthy();
  });

  it('asks for 2 letters, then searches on the server without + / ( )', async () => {
    const user = userEvent.setup();
    render(<Contacts />);
    await screen.findByText('Contato 01', {}, { timeout: 5000 });
    const search = screen.getByRole('textbox', { name: messages.registers.search });
    await user.type(search, '(');
    await user.type(search, '1');
    expect(await screen.findByText(messages.validation.search2)).toBeTruthy();
    await user.type(search, '2');
    await waitFor(() => expect(rows()).toHaveLength(1), { timeout: 5000 });
    const last = listCalls().at(-1)!;
    expect(JSON.parse(new URLSearchParams(last.path.split('?')[1]).get('filter')!)).toEqual({ q: '12' });
    expect(screen.getByText('Contato 12')).toBeTruthy();
  });

  it('deletes a row only after Tem certeza… DELETAR, and toasts it', async () => {
    const user = userEvent.setup();
    render(<Contacts />);
    await screen.findByText('Contato 01', {}, { timeout: 5000 });
    const first = rows()[0]!;
    await user.click(within(first).getByRole('button', { name: messages.registers.delete }));
    const dialog = await screen.findByRole('dialog', { name: messages.table.confirmDelete });
    await user.click(within(dialog).getByRole('button', { name: messages.table.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(recordedCalls().some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(rows()[0]!).getByRole('button', { name: messages.registers.delete }));
    await user.click(within(await screen.findByRole('dialog', { name: messages.table.confirmDelete })).getByRole('button', { name: messages.table.delete }));
    expect(await screen.findByText(messages.table.deleted)).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Contato 01')).toBeNull());
  });

  it('creates a contact with the schema defaults, toasts Registro Salvo! and returns to the list', async () => {
    const user = userEvent.setup();
    render(<Contacts />);
    await screen.findByText('Contato 01', {}, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: messages.registers.create }));
    await screen.findByRole('heading', { name: 'Novo Contato' });
    await user.type(screen.getByRole('textbox', { name: /^Nome\s*\*?$/ }), 'Ana Lima');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(await screen.findByText(messages.table.saved)).toBeTruthy();
    const post = recordedCalls().find((call) => call.method === 'POST' && call.path === '/api/contacts')!;
    expect(post.body).toMatchObject({ displayName: 'Ana Lima', channels: ['whatsapp'], active: true, email: null });
    // The server's body parser reads JSON only when told so.
    expect(post.headers['content-type']).toBe('application/json');
    // Back on the list: it fetches its page again (slow on a loaded CI box).
    await screen.findByRole('textbox', { name: messages.registers.search }, { timeout: 5000 });
  });

  it('edits a row from its edit button', async () => {
    const user = userEvent.setup();
    render(<Contacts />);
    await screen.findByText('Contato 01', {}, { timeout: 5000 });
    await user.click(within(rows()[0]!).getByRole('button', { name: messages.registers.edit }));
    const name = (await screen.findByRole('textbox', { name: /^Nome\s*\*?$/ })) as HTMLInputElement;
    expect(name.value).toBe('Contato 01');
    await user.clear(name);
    await user.type(name, 'Contato 00');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(await screen.findByText('Contato 00', {}, { timeout: 5000 })).toBeTruthy();
    const put = recordedCalls().find((call) => call.method === 'PUT')!;
    expect(put.path).toBe('/api/contacts/c1');
  });

  it("shows 'Esta lista está vazia' when there is nothing", async () => {
    render(<Empty />);
    expect(await screen.findByText(messages.table.empty)).toBeTruthy();
  });

  it('offers no writes on a read-only register', async () => {
    render(<ReadOnly />);
    await screen.findByText('Cliente Externo');
    expect(screen.queryByRole('button', { name: messages.registers.create })).toBeNull();
    expect(screen.queryByRole('button', { name: messages.registers.edit })).toBeNull();
    expect(screen.queryByRole('button', { name: messages.registers.delete })).toBeNull();
    expect(screen.getByRole('button', { name: messages.registers.view })).toBeTruthy();
  });

  it("offers no delete on the signed-in admin's own agent row", async () => {
    render(<AgentsAsAdmin />);
    await screen.findByText('Amanda Agente');
    const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
    expect(within(rowOf('Ana Administradora')).queryByRole('button', { name: messages.registers.delete })).toBeNull();
    expect(within(rowOf('Amanda Agente')).getByRole('button', { name: messages.registers.delete })).toBeTruthy();
  });

  it('says so when the server offers the user no such register', async () => {
    render(<NotAllowed />);
    expect(await screen.findByText(messages.auth.forbidden)).toBeTruthy();
  });
});
