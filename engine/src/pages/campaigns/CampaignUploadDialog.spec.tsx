import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
});
