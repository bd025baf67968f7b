import { beforeEach, describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen } from '@testing-library/react';
import * as stories from './InternalChatDialog.stories';

const s = composeStories(stories);

describe('InternalChatDialog (seed 001 §5 "Internal chat")', () => {
  beforeEach(() => {
    stories.confirmed.length = 0;
  });

  it('asks for at least one agent, shows the group name only with more than one, and sends the choice', () => {
    render(<s.Start />);
    fireEvent.click(screen.getByRole('button', { name: 'Conversar' }));
    expect(screen.getByText('Escolha agentes para conversar!')).toBeTruthy();
    expect(stories.confirmed).toHaveLength(0);
    fireEvent.click(screen.getByText('Bia Suporte'));
    expect(screen.queryByLabelText('Nome do grupo')).toBeNull();
    fireEvent.click(screen.getByText('Dani Financeiro'));
    fireEvent.change(screen.getByLabelText('Nome do grupo'), { target: { value: 'Plantão' } });
    fireEvent.click(screen.getByRole('button', { name: 'Conversar' }));
    expect(stories.confirmed).toEqual([{ agents: ['u-bia', 'u-dani'], name: 'Plantão' }]);
  });

  it('adding agents does not offer the members already in the chat', () => {
    render(<s.AddAgents />);
    expect(screen.queryByText('Bia Suporte')).toBeNull();
    fireEvent.click(screen.getByText('Caio Vendas'));
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar agentes' }));
    expect(stories.confirmed).toEqual([{ agents: ['u-caio'], name: null }]);
  });
});
