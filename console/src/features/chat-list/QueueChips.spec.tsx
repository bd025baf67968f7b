import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen } from '@testing-library/react';
import * as stories from './QueueChips.stories';

const s = composeStories(stories);
const chips = () => screen.getAllByRole('button').filter((b) => b.hasAttribute('data-queue')).map((b) => b.textContent);
const selected = () => document.querySelector('[data-selected]')!.textContent;

describe("QueueChips (seed 001 §2 'Todas Filas')", () => {
  it("shows 2 queues with their counts, 'Ver mais' shows all and 'Ver menos' folds them", () => {
    render(<s.Default />);
    expect(chips()).toEqual(['Vendas (7)', 'Suporte (4)']);
    fireEvent.click(screen.getByRole('button', { name: 'Ver mais' }));
    expect(chips()).toEqual(['Vendas (7)', 'Suporte (4)', 'Financeiro (2)', 'Logística (1)']);
    fireEvent.click(screen.getByRole('button', { name: 'Ver menos' }));
    expect(chips()).toHaveLength(2);
  });

  it("a chip narrows to its queue; 'Limpar filtro' clears it", () => {
    render(<s.Default />);
    expect(screen.queryByRole('button', { name: 'Limpar filtro' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Suporte (4)' }));
    expect(selected()).toBe('deptosuporte');
    fireEvent.click(screen.getByRole('button', { name: 'Limpar filtro' }));
    expect(selected()).toBe('');
  });

  it('keeps a chosen queue past the first two in view', () => {
    render(<s.Chosen />);
    expect(chips()).toEqual(['Vendas (7)', 'Suporte (4)', 'Logística (1)']);
  });
});
