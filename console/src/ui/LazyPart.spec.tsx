import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { publicMessages } from '@atendimento/schemas';
import * as stories from './LazyPart.stories';

const { Reachable, Unavailable, TwoUnavailable } = composeStories(stories);

/** Lets React.lazy's rejected import settle and the boundary render its fallback. */
async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
}

describe('LazyPart', () => {
  it('shows the part once its chunk has loaded', async () => {
    render(<Reachable />);
    expect((await screen.findByRole('note')).textContent).toBe('Menu carregado');
    expect(screen.getByRole('button', { name: 'Status: online' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a chunk that cannot be fetched leaves the rest of the screen in place, says so, and offers the reload that fetches it again', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reload = vi.fn();
    const location = window.location;
    Object.defineProperty(window, 'location', { configurable: true, value: { ...location, reload } });
    try {
      const view = render(<Unavailable />);
      await settle();
      expect(screen.getByRole('button', { name: 'Status: online' })).toBeTruthy();
      expect(screen.queryByRole('note')).toBeNull();
      expect(logged.mock.calls.some(([first]) => first === 'lazy part failed')).toBe(true);
      expect(screen.getByRole('alert').textContent).toContain(publicMessages.shell.partFailed);
      fireEvent.click(screen.getByRole('button', { name: publicMessages.shell.reload }));
      expect(reload).toHaveBeenCalledTimes(1);
      // Gone with the part that failed: a later screen does not inherit the notice.
      view.unmount();
      render(<Reachable />);
      await screen.findByRole('note');
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: location });
      logged.mockRestore();
    }
  });

  it('several failed parts show one notice', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      render(<TwoUnavailable />);
      await settle();
      expect(logged.mock.calls.filter(([first]) => first === 'lazy part failed')).toHaveLength(2);
      expect(screen.getAllByRole('alert')).toHaveLength(1);
    } finally {
      logged.mockRestore();
    }
  });
});
