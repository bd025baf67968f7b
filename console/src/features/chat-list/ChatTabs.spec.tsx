import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './ChatTabs.stories';
import { tabTotal } from './ChatTabs';

const s = composeStories(stories);
const badges = (name: string) => {
  const tab = screen.getByRole('tab', { name });
  return { unread: tab.querySelector('.MuiBadge-badge:not(.MuiBadge-invisible)')?.textContent ?? null, total: tab.querySelector('[data-badge="total"]')?.textContent ?? null };
};

describe('ChatTabs (seed 001 §2 "Chat list panel" tabs)', () => {
  it('shows each title under its icon with the red unread and green total badges; Contatos has no total', () => {
    render(<s.Agent />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent?.replace(/\d+/g, ''))).toEqual(['Contatos', 'Meus', 'Fila', 'Histórico', 'Interno']);
    expect(badges('Meus')).toEqual({ unread: '2', total: '4' });
    expect(badges('Fila')).toEqual({ unread: '1', total: '1' });
    expect(badges('Histórico')).toEqual({ unread: null, total: '12' });
    expect(badges('Contatos').total).toBeNull();
    expect(screen.getByRole('tab', { name: 'Fila' }).getAttribute('aria-selected')).toBe('true');
  });

  it('shortens totals past 999 to fit beside the icon, the exact number in the badge title', () => {
    render(<s.LargeCounts />);
    expect(badges('Meus')).toEqual({ unread: '12', total: '999' });
    expect(badges('Fila')).toEqual({ unread: '999+', total: '100k' });
    expect(badges('Todas Filas').total).toBe('1,2k');
    expect(badges('Histórico').total).toBe('2,5M');
    expect(screen.getByRole('tab', { name: 'Fila' }).querySelector('[data-badge="total"]')!.getAttribute('title')).toBe('100.000');
    expect([1000, 9999, 10_000, 999_999, 1_000_000, 12_345_678].map(tabTotal)).toEqual(['1k', '9,9k', '10k', '999k', '1M', '12M']);
  });

  it('has no tooltip repeating the title (it covered the list after a click)', () => {
    vi.useFakeTimers();
    try {
      render(<s.Agent />);
      const fila = screen.getByRole('tab', { name: 'Fila' });
      fireEvent.mouseOver(fila.querySelector('span')!);
      fireEvent.click(fila);
      act(() => vi.advanceTimersByTime(2000));
      expect(screen.queryByRole('tooltip')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a click picks the tab; without counters every total is 0', () => {
    const onChange = vi.fn();
    render(<s.SupervisorNoCounters onChange={onChange} />);
    expect(badges('Equipe')).toEqual({ unread: null, total: '0' });
    fireEvent.click(screen.getByRole('tab', { name: 'Histórico' }));
    expect(onChange).toHaveBeenCalledWith('chatsHistories');
  });

  it('is one tab stop: arrows, Home and End move between tabs, Enter picks one, the picked one again changes nothing', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<s.Agent onChange={onChange} />);
    const tabs = screen.getAllByRole('tab');
    expect(screen.getByRole('tablist', { name: 'Abas de chats' }).getAttribute('aria-orientation')).toBe('vertical');
    expect(tabs.map((t) => t.tabIndex)).toEqual([-1, -1, 0, -1, -1]);
    const fila = screen.getByRole('tab', { name: 'Fila' });
    fila.focus();
    fireEvent.keyDown(fila, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Histórico' }));
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Contatos' }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Interno' }));
    await user.keyboard('{Home}{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Contatos' }));
    expect(onChange).toHaveBeenCalledWith('contacts');
    fireEvent.click(fila);
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});
