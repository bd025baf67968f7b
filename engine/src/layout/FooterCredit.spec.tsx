import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import * as stories from './FooterCredit.stories';

const { WithLink, NameOnly, None } = composeStories(stories);

describe('FooterCredit', () => {
  it('credits the configured name, linking out in a new tab', () => {
    render(<WithLink />);
    expect(screen.getByRole('contentinfo').textContent).toBe('Desenvolvido por Acme Sistemas');
    const link = screen.getByRole('link', { name: 'Acme Sistemas' });
    expect(link.getAttribute('href')).toBe('https://acme.example');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows the name alone without a link', () => {
    render(<NameOnly />);
    expect(screen.getByRole('contentinfo').textContent).toBe('Desenvolvido por Acme Sistemas');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('shows nothing without a footer', () => {
    render(<None />);
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });
});
