import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './CampaignDetailPage.stories';
import { recordedCalls } from '../../stories/fakeApi';
import { campaign, counters, storyLive } from './campaignStoryData';

const { Sending, Paused, Proccessed } = composeStories(stories);

describe('CampaignDetailPage', () => {
  it('shows the metric cards, progress and the message table with the seed status texts', async () => {
    render(<Sending />);
    expect(await screen.findByText('Black Friday')).toBeTruthy();
    expect(screen.getByLabelText('Enviadas').textContent).toBe('3');
    expect(screen.getByLabelText('Lidas').textContent).toBe('1');
    expect(screen.getByText('3 de 5 (60%)')).toBeTruthy();
    for (const text of ['Lido', 'Entregue', 'Erro: Mensagem não entregue', 'Não enviado']) expect(await screen.findByText(text)).toBeTruthy();
    expect(screen.getByText('Quero!')).toBeTruthy();
  });

  it('counters move live when the hub sends the campaign again', async () => {
    render(<Sending />);
    await screen.findByText('Black Friday');
    act(() => storyLive.push(campaign({ counters: counters({ done: 5, sent: 5, delivered: 5, read: 4, interacted: 2, clicked: 1 }) })));
    await waitFor(() => expect(screen.getByLabelText('Lidas').textContent).toBe('4'));
    expect(screen.getByLabelText('Clicaram').textContent).toBe('1');
    expect(screen.getByText('5 de 5 (100%)')).toBeTruthy();
  });

  it("'Pausar' sends the campaign without its dates and paused true; 'Retomar' unpauses", async () => {
    const user = userEvent.setup();
    render(<Sending />);
    await user.click(await screen.findByRole('button', { name: 'Pausar' }));
    const patch = recordedCalls().find((c) => c.method === 'PATCH')!;
    expect(patch.path).toBe('/api/notifications/c1');
    expect(patch.body).toMatchObject({ paused: true, name: 'Black Friday' });
    expect(patch.body).not.toHaveProperty('startDate');
    expect(patch.body).not.toHaveProperty('endDate');
    expect(await screen.findByRole('button', { name: 'Retomar' })).toBeTruthy();
  });

  it('offers unpause when paused and nothing once proccessed', async () => {
    const { unmount } = render(<Paused />);
    expect(await screen.findByRole('button', { name: 'Retomar' })).toBeTruthy();
    unmount();
    render(<Proccessed />);
    await screen.findByText('Concluída');
    expect(screen.queryByRole('button', { name: 'Pausar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retomar' })).toBeNull();
  });

  it('filters the table by status and exports it', async () => {
    const user = userEvent.setup();
    render(<Sending />);
    await screen.findByText('Lido');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Erros' }));
    await waitFor(() => expect(recordedCalls().some((c) => c.path.startsWith('/api/notifications/c1/messages?status=error'))).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Exportar' }));
    await waitFor(() => expect(recordedCalls().some((c) => c.path.startsWith('/api/notifications/c1/messages.csv?status=error'))).toBe(true));
  });
});
