import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './CampaignsPage.stories';
import { recordedCalls } from '../../stories/fakeApi';

const { Default, Empty } = composeStories(stories);

describe('CampaignsPage', () => {
  it('lists campaigns with progress; the new button is disabled; a row opens the detail', async () => {
    const user = userEvent.setup();
    render(<Default />);
    expect(await screen.findByText('Black Friday')).toBeTruthy();
    expect(screen.getByText('Natal')).toBeTruthy();
    expect(screen.queryByText('Aviso do ERP')).toBeNull();
    expect(screen.getByText('3 de 5')).toBeTruthy();
    // The pager labelled as the register lists are.
    expect(screen.getByText('Resultados por página:')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Novo' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByText('Black Friday'));
    expect(screen.getByTestId('location').textContent).toBe('/notifications/c1');
  });

  it("'Mostrar Notificações Externas' asks for external notifications too", async () => {
    const user = userEvent.setup();
    render(<Default />);
    await screen.findByText('Black Friday');
    await user.click(screen.getByRole('switch', { name: 'Mostrar Notificações Externas' }));
    expect(await screen.findByText('Aviso do ERP')).toBeTruthy();
    expect(recordedCalls().some((c) => c.path.startsWith('/api/notifications?external=true'))).toBe(true);
  });

  it('shows the empty text and opens the upload dialog', async () => {
    const user = userEvent.setup();
    render(<Empty />);
    expect(await screen.findByText('Esta lista está vazia')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Enviar CSV' }));
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Enviar CSV' })).toBeTruthy());
  });
});
