import { describe, expect, it } from 'vitest';
import { composeStories, composeStory } from '@storybook/react';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './IntegrationReports.stories';
import { reportsApi } from './IntegrationReports.stories';

const { Default, ListFailed } = composeStories(stories);
// The next page's table renders after the fake API answers; on a loaded 2-core box that passed the default 1 s once.
configure({ asyncUtilTimeout: 4000 });
const bodyRows = (dialog: HTMLElement) => within(dialog).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell')[0]!.textContent);

describe('IntegrationReports ("Rel. {title}" in the contact drawer)', () => {
  it('shows a button only for report integrations, opening a table with pages and "Fechar"', async () => {
    render(<Default />);
    const button = await screen.findByRole('button', { name: 'Rel. Vendas' });
    expect(screen.queryByRole('button', { name: 'Rel. Outros' })).toBeNull();
    const user = userEvent.setup();
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Rel. Vendas' });
    await waitFor(() => expect(bodyRows(dialog)).toHaveLength(10));
    expect(within(dialog).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Pedido', 'Valor']);
    expect(bodyRows(dialog)[0]).toBe('V-1');
    expect((within(dialog).getByRole('button', { name: 'Anterior' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Próxima' }));
    await waitFor(() => expect(bodyRows(dialog)).toEqual(['V-11', 'V-12', 'V-13', 'V-14', 'V-15']));
    // The search box's 300 ms debounce must not send a 'Próxima' clicked right after opening back to page 1.
    await new Promise((r) => setTimeout(r, 400));
    expect(bodyRows(dialog)).toEqual(['V-11', 'V-12', 'V-13', 'V-14', 'V-15']);
    expect((within(dialog).getByRole('button', { name: 'Próxima' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('searches with filter={"q":…} from the first page', async () => {
    const api = reportsApi();
    const Story = composeStory(stories.Default, { ...stories.default, parameters: { api } } as Parameters<typeof composeStory>[1]);
    render(<Story />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rel. Vendas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rel. Vendas' });
    await waitFor(() => expect(bodyRows(dialog)).toHaveLength(10));
    await user.type(within(dialog).getByRole('textbox', { name: 'Buscar' }), 'V-1');
    await waitFor(() => expect(bodyRows(dialog)).toEqual(['V-1', 'V-10', 'V-11', 'V-12', 'V-13', 'V-14', 'V-15']));
    const last = api.calls.filter((c) => c.path.startsWith('/api/integration/vendas?')).at(-1)!;
    const params = new URLSearchParams(last.path.split('?')[1]);
    expect(JSON.parse(params.get('filter')!)).toEqual({ q: 'V-1' });
    expect(JSON.parse(params.get('range')!)).toEqual([0, 10]);
  });

  it("says the server's message when the records call fails", async () => {
    render(<ListFailed />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Rel. Vendas' }));
    expect(await screen.findByText('Você não tem permissão para acessar este recurso.')).toBeTruthy();
  });
});
