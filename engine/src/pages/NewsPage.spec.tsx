import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import * as stories from './NewsPage.stories';

const { Default, WithVideo } = composeStories(stories);

describe('NewsPage', () => {
  it('shows the three blocks of the seed: fixed messages, emojis, pasting attachments', () => {
    render(<Default />);
    const titles = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(titles).toEqual(['Mensagens fixas no chat', 'Emojis', 'Colar anexos']);
    expect(screen.getByText(/Cole \(Ctrl\+V\) imagens e arquivos/)).toBeTruthy();
    expect(document.querySelector('video')).toBeNull();
  });

  it('plays a block video when one is configured', () => {
    const { container } = render(<WithVideo />);
    expect(container.querySelectorAll('video')).toHaveLength(1);
  });
});
