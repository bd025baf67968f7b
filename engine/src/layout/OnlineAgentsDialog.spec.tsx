import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './OnlineAgentsDialog.stories';

const { Default, Empty, Loading } = composeStories(stories);

describe('OnlineAgentsDialog', () => {
  it('lists each online agent with their status', () => {
    render(<Default />);
    const dialog = screen.getByRole('dialog', { name: 'Agentes Online' });
    const rows = within(dialog).getAllByRole('listitem').map((row) => row.textContent);
    expect(rows).toEqual(['AAAna Administradoraonline', 'SSSérgio Supervisorausente']);
  });

  it('says when nobody is online', () => {
    render(<Empty />);
    expect(screen.getByText('Nenhum agente online no momento.')).toBeTruthy();
  });

  it('shows a progress indicator while loading and closes with Fechar', async () => {
    const onClose = vi.fn();
    render(<Loading onClose={onClose} />);
    expect(screen.getByRole('progressbar', { name: 'Carregando...' })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Fechar' }));
    expect(onClose).toHaveBeenCalled();
  });
});
