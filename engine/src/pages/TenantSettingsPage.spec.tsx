import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './TenantSettingsPage.stories';
import { recordedCalls } from '../stories/fakeApi';

const { Default } = composeStories(stories);

describe('TenantSettingsPage', () => {
  it('renders the groups from the schema, each claim with its one-line help, and the audit list', async () => {
    render(<Default />);
    expect(await screen.findByText('Encerramento')).toBeTruthy();
    for (const group of ['Atendimento', 'Transferência', 'Pesquisas', 'Aparência', 'ERP', 'Visões']) expect(screen.getAllByText(group).length).toBeGreaterThan(0);
    expect(screen.getByText('Exige uma tag para encerrar.')).toBeTruthy();
    // Each switch is named by its pt-BR sentence, not the claim's key (shown small under it).
    expect(screen.getByRole('switch', { name: 'Exige uma tag para encerrar.' })).toBeTruthy();
    expect(screen.getByText('Chave: tagWhenClose')).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'tagWhenClose' })).toBeNull();
    // Claims the console reads, and the tenant time zone.
    expect(screen.getByText("Não mostra o aviso 'Copiado' ao copiar um texto.")).toBeTruthy();
    expect(screen.getByText('Transferir a um agente de outro departamento move o chat para a fila dele.')).toBeTruthy();
    expect(screen.getAllByText('Fuso horário').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Horário de Brasília (America/Sao_Paulo)').length).toBeGreaterThan(0);
    expect(screen.getByText('Ana Administradora')).toBeTruthy();
    expect(screen.getByText('atendimento.publicRegister')).toBeTruthy();
  });

  it('shows the LGPD retention days under Encerramento and the chat tabs list under Visões', async () => {
    const user = userEvent.setup();
    render(<Default />);
    const chats = (await screen.findByLabelText('Anonimizar chats encerrados após (dias)')) as HTMLInputElement;
    expect(chats.value).toBe('1825');
    const media = screen.getByLabelText('Apagar arquivos de chats encerrados após (dias)') as HTMLInputElement;
    expect(media.value).toBe('');
    expect(screen.getByText('Retenção de dados (LGPD)')).toBeTruthy();
    expect(screen.getAllByText(/0 ou vazio mantém para sempre/).length).toBe(2);
    // chatTabs: one entry, 'Fila' renamed; a tab select, 'Rótulo', 'Oculta'.
    expect(screen.getAllByText('Abas de chats').length).toBeGreaterThan(0);
    expect(screen.getByDisplayValue('Aguardando')).toBeTruthy();
    expect(screen.getAllByText('Fila').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Oculta').length).toBeGreaterThan(0);
    fireEvent.change(media, { target: { value: '90' } });
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(recordedCalls().some((c) => c.method === 'PUT' && c.path === '/api/tenant-settings')).toBe(true));
    const put = recordedCalls().find((c) => c.method === 'PUT')!.body as { encerramento: { retention: unknown }; visoes: { chatTabs: unknown } };
    expect(put.encerramento.retention).toEqual({ closedChatsDays: 1825, mediaDays: 90 });
    expect(put.visoes.chatTabs).toEqual([{ id: 'queuesChats', label: 'Aguardando', hidden: false }]);
    expect(await screen.findByText('encerramento.retention.mediaDays')).toBeTruthy();
  });

  it("numbers each list's entries by the schema's item title, not rjsf's 'Justificativas de encerramento-1'", async () => {
    render(<Default />);
    // Closing: Resolvido, Sem retorno; transfer: the defaults (both lists' entries are 'Justificativa').
    expect(((await screen.findByLabelText(/^Justificativa 1/)) as HTMLInputElement).value).toBe('Resolvido');
    expect((screen.getAllByLabelText(/^Justificativa 2/)[0] as HTMLInputElement).value).toBe('Sem retorno');
    expect(screen.getAllByText('Status 1').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Aba 1').length).toBeGreaterThan(0);
    expect(screen.queryByText(/Justificativas de encerramento-1|Lista de status-1|Abas de chats-1/)).toBeNull();
  });

  it('saves an edited closing justification and shows it in the audit list', async () => {
    const user = userEvent.setup();
    render(<Default />);
    const first = (await screen.findByDisplayValue('Resolvido')) as HTMLInputElement;
    fireEvent.change(first, { target: { value: 'Resolvido na hora' } });
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(recordedCalls().some((c) => c.method === 'PUT' && c.path === '/api/tenant-settings')).toBe(true));
    const put = recordedCalls().find((c) => c.method === 'PUT')!;
    expect((put.body as { encerramento: { justifies: string[] } }).encerramento.justifies).toEqual(['Resolvido na hora', 'Sem retorno']);
    expect(await screen.findByText('encerramento.justifies')).toBeTruthy();
  });
});
