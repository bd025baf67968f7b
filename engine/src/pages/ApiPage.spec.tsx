import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './ApiPage.stories';
import { recordedCalls } from '../stories/fakeApi';

const { Default, NoTokens, InvalidScope } = composeStories(stories);

const posts = () => recordedCalls().filter((call) => call.method === 'POST' && call.path === '/api/api-tokens');
const tokenField = () => screen.getByLabelText('Token de acesso') as HTMLInputElement;

describe('ApiPage', () => {
  it('shows the API URL, the documentation link, and an existing token only by its prefix', async () => {
    render(<Default />);
    expect((screen.getByLabelText('URL da API') as HTMLInputElement).value).toBe('https://acme.atendimento.app/api');
    expect(screen.getByRole('link', { name: 'Documentação da API (OpenAPI)' }).getAttribute('href')).toBe('/api/openapi.json');
    expect(await screen.findByText('atk_Q2x9Zp…')).toBeTruthy();
    expect(tokenField().value).toBe('');
    expect(screen.getAllByText('O token só é exibido ao ser gerado. Gere um novo para copiar.').length).toBeGreaterThan(0);
    expect((screen.getByRole('button', { name: 'Copiar token' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("generates a token with the chosen scope ('Token gerado'), shows it once and copies it ('Token copiado')", async () => {
    const user = userEvent.setup();
    render(<NoTokens />);
    expect(await screen.findByText('Nenhum token gerado.', { selector: '.MuiAlert-message' })).toBeTruthy();
    const name = screen.getByLabelText('Identificador');
    await user.clear(name);
    await user.type(name, 'erp');
    const urls = screen.getByLabelText('URLs permitidas');
    await user.clear(urls);
    await user.type(urls, '/api/contacts{Enter}/api/integration/pedidos');
    await user.click(screen.getByRole('checkbox', { name: 'POST' }));
    await user.click(screen.getByRole('button', { name: 'Gerar novo token' }));

    expect(await screen.findByText('Token gerado')).toBeTruthy();
    expect(posts()[0]!.body).toEqual({ id: 'erp', urls: ['/api/contacts', '/api/integration/pedidos'], methods: ['GET', 'POST'] });
    await waitFor(() => expect(tokenField().value).toMatch(/^atk_story/));
    expect(screen.getByText('Copie o token agora: ele não será exibido novamente.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Copiar token' }));
    expect(await screen.findByText('Token copiado')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(tokenField().value);
  });

  it('asks before replacing the active token of the same id, then lists the old one as revoked; revokes on request', async () => {
    const user = userEvent.setup();
    render(<Default />);
    await screen.findByText('atk_Q2x9Zp…');
    await user.click(screen.getByRole('button', { name: 'Gerar novo token' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Gerar um novo token revoga o atual. Continuar?')).toBeTruthy();
    expect(posts()).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Gerar' }));
    expect(await screen.findByText('Token gerado')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Revogado')).toBeTruthy());

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(await screen.findByRole('button', { name: 'Revogar api' }));
    expect(await screen.findByText('Token revogado')).toBeTruthy();
    expect(recordedCalls().some((call) => call.method === 'DELETE' && call.path.startsWith('/api/api-tokens/'))).toBe(true);
    await waitFor(() => expect(screen.getAllByText('Revogado')).toHaveLength(2));
  });

  it("shows the server's pt-BR field errors under the scope", async () => {
    const user = userEvent.setup();
    render(<InvalidScope />);
    await screen.findByText('Nenhum token gerado.', { selector: '.MuiAlert-message' });
    await user.click(screen.getByRole('button', { name: 'Gerar novo token' }));
    expect(await screen.findByText('Informe as URLs permitidas (caminhos sob /api, até 50).')).toBeTruthy();
    expect(tokenField().value).toBe('');
  });
});
