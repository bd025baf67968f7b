import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './MessagePage.stories';

const { LinkExpired, NotFound } = composeStories(stories);

describe('MessagePage', () => {
  it("titles /linkexpirado 'Link Expirado' and leads back to the sign-in", async () => {
    render(<LinkExpired />);
    expect(screen.getByRole('heading', { name: 'Link Expirado' })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Voltar para o login' }));
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it("shows '404' and leads home", async () => {
    render(<NotFound />);
    expect(screen.getByRole('heading', { name: '404' })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Voltar ao início' }));
    expect(screen.getByTestId('location').textContent).toBe('/');
  });
});
