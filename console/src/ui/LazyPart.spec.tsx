import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { act, render, screen } from '@testing-library/react';
import * as stories from './LazyPart.stories';

const { Reachable, Unavailable } = composeStories(stories);

describe('LazyPart', () => {
  it('shows the part once its chunk has loaded', async () => {
    render(<Reachable />);
    expect((await screen.findByRole('note')).textContent).toBe('Menu carregado');
    expect(screen.getByRole('button', { name: 'Status: online' })).toBeTruthy();
  });

  it('a chunk that cannot be fetched leaves the rest of the screen in place, and says so in the console', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      render(<Unavailable />);
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
      expect(screen.getByRole('button', { name: 'Status: online' })).toBeTruthy();
      expect(screen.queryByRole('note')).toBeNull();
      expect(logged.mock.calls.some(([first]) => first === 'lazy part failed')).toBe(true);
    } finally {
      logged.mockRestore();
    }
  });
});
