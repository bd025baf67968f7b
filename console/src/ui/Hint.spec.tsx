import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './Hint.stories';

const s = composeStories(stories);

describe('Hint (the icon buttons of the first screen)', () => {
  it('names a button without its own label after the hint, and keeps a label it has', () => {
    render(<s.Below />);
    expect(screen.getByRole('button', { name: 'Filtros' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Iniciar conversa' })).toBeTruthy();
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('shows the bubble while the pointer is over the button and hides it when the pointer leaves', async () => {
    const user = userEvent.setup();
    render(<s.Beside />);
    const button = screen.getByRole('button', { name: 'Filtros' });
    await user.hover(button);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Filtros');
    await user.unhover(button);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });

  it('a touch shows nothing, nor does the focus a click gives', async () => {
    render(<s.Below />);
    const button = screen.getByRole('button', { name: 'Filtros' });
    fireEvent.pointerEnter(button, { pointerType: 'touch' });
    // jsdom matches no element to :focus-visible, as a browser does after a click.
    fireEvent.focus(button);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
