import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen } from '@testing-library/react';
import * as stories from './SearchFilterFields.stories';

const s = composeStories(stories);

describe('SearchFilterFields (the search filter menu, seed 001 §2)', () => {
  it('picks a tag and switches on "Meus contatos"; no NPS range or dates for an agent on Meus', async () => {
    const onFilters = vi.fn();
    render(<s.Agent onFilters={onFilters} />);
    expect(screen.queryByRole('slider')).toBeNull();
    expect(screen.queryByLabelText('De')).toBeNull();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Tags' }));
    fireEvent.click(await screen.findByRole('option', { name: 'VIP' }));
    expect(onFilters).toHaveBeenLastCalledWith(expect.objectContaining({ tags: ['tag-vip'] }));
    fireEvent.click(screen.getByRole('switch', { name: 'Meus contatos' }));
    expect(onFilters).toHaveBeenLastCalledWith(expect.objectContaining({ tags: ['tag-vip'], myContacts: true }));
  });

  it('shows the NPS range to who reads surveys, and the dates on Histórico', () => {
    const { unmount } = render(<s.WithNps />);
    expect(screen.getAllByRole('slider').map((e) => e.getAttribute('aria-label'))).toEqual(['NPS mínimo', 'NPS máximo']);
    unmount();
    render(<s.History />);
    expect(screen.getByLabelText('De')).toBeTruthy();
    expect(screen.getByLabelText('Até')).toBeTruthy();
  });
});
