import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './CampaignUploadDialog.stories';
import { recordedCalls } from '../../stories/fakeApi';

const { Open } = composeStories(stories);

describe('CampaignUploadDialog', () => {
  it('previews the file, lists rejected rows with their reasons and creates only after confirming the valid part', async () => {
    const user = userEvent.setup();
    const onCreated = vi.fn();
    render(<Open onCreated={onCreated} />);
    await user.type(screen.getByRole('textbox', { name: 'Nome' }), 'Black Friday');
    await user.click(screen.getByRole('combobox', { name: 'Canal' }));
    await user.click(await screen.findByRole('option', { name: 'WhatsApp Comercial' }));
    await user.click(screen.getByRole('combobox', { name: 'Template' }));
    // Numbered names in a person's order: aviso_2 before aviso_10.
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['aviso_2 (pt_BR)', 'aviso_10 (pt_BR)', 'boas_vindas (pt_BR)']);
    await user.click(await screen.findByRole('option', { name: 'boas_vindas (pt_BR)' }));
    const file = new File(['chatId;nome\n5511987654321;Ana\n'], 'campanha.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('Arquivo CSV'), file);
    await user.click(await screen.findByRole('combobox', { name: 'Parâmetro {{1}}' }));
    await user.click(await screen.findByRole('option', { name: 'nome' }));
    await user.click(screen.getByRole('combobox', { name: 'Fluxo' }));
    await user.click(await screen.findByRole('option', { name: 'Triagem inicial' }));

    await user.click(screen.getByRole('button', { name: 'Pré-visualização' }));
    const preview = await screen.findByTestId('campaign-preview');
    expect(within(preview).getByText('3 linhas válidas')).toBeTruthy();
    expect(within(preview).getByText('2 linhas rejeitadas')).toBeTruthy();
    expect(within(preview).getByText('Telefone inválido')).toBeTruthy();
    expect(within(preview).getByText('Contato bloqueado')).toBeTruthy();
    // The first messages as they will go out, with the chosen column in the template.
    const samples = within(preview).getByRole('table', { name: 'Como as primeiras mensagens serão enviadas' });
    expect(within(samples).getByText('Olá Ana, tudo bem?')).toBeTruthy();
    expect(within(preview).getByRole('button', { name: 'Baixar linhas rejeitadas' })).toBeTruthy();
    const sent = recordedCalls().find((c) => c.path === '/api/notifications/preview')!.body as FormData;
    expect(JSON.parse(String(sent.get('template')))).toEqual({ name: 'boas_vindas', language: 'pt_BR', params: ['nome'] });
    expect(sent.get('flow')).toBe('flow-triagem');

    const create = screen.getByRole('button', { name: 'Criar campanha' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Criar campanha só com as linhas válidas' }));
    await user.click(create);
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 'c2' })));
  });

  it('a spreadsheet chosen as the CSV is refused at once, with no binary column offered', async () => {
    const user = userEvent.setup({ applyAccept: false });
    render(<Open />);
    await user.click(screen.getByRole('combobox', { name: 'Canal' }));
    await user.click(await screen.findByRole('option', { name: 'WhatsApp Comercial' }));
    await user.click(screen.getByRole('combobox', { name: 'Template' }));
    await user.click(await screen.findByRole('option', { name: 'boas_vindas (pt_BR)' }));
    // The first bytes of an .xlsx (a zip archive).
    const xlsx = new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00])], 'campanha.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    await user.upload(screen.getByLabelText('Arquivo CSV'), xlsx);
    expect(await screen.findByText(messages.campaigns.fileUnreadable)).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: 'Parâmetro {{1}}' }));
    expect(screen.queryAllByRole('option')).toEqual([]);
    // A CSV afterwards clears the message.
    await user.keyboard('{Escape}');
    await user.upload(screen.getByLabelText('Arquivo CSV'), new File(['chatId;nome\n5511987654321;Ana\n'], 'campanha.csv', { type: 'text/csv' }));
    await waitFor(() => expect(screen.queryByText(messages.campaigns.fileUnreadable)).toBeNull());
  });

  it('says on the parameter itself when its column was not chosen', async () => {
    const user = userEvent.setup();
    render(<Open />);
    await user.type(screen.getByRole('textbox', { name: 'Nome' }), 'Sem coluna');
    await user.click(screen.getByRole('combobox', { name: 'Canal' }));
    await user.click(await screen.findByRole('option', { name: 'WhatsApp Comercial' }));
    await user.click(screen.getByRole('combobox', { name: 'Template' }));
    await user.click(await screen.findByRole('option', { name: 'boas_vindas (pt_BR)' }));
    await user.upload(screen.getByLabelText('Arquivo CSV'), new File(['chatId;nome\n5511987654321;Ana\n'], 'campanha.csv', { type: 'text/csv' }));
    await screen.findByRole('combobox', { name: 'Parâmetro {{1}}' });
    await user.click(screen.getByRole('button', { name: 'Pré-visualização' }));
    const message = 'Escolha a coluna do arquivo para este parâmetro.';
    await waitFor(() => expect(screen.getAllByText(message).length).toBeGreaterThan(0));
    const param = screen.getByRole('combobox', { name: 'Parâmetro {{1}}' });
    expect(param.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(param.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe(message);
    // The template's helper still shows the template's text, not the parameter's error.
    expect(screen.getByText('Olá {{1}}, tudo bem?')).toBeTruthy();
  });
});
