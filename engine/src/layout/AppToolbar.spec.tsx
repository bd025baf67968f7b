import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './AppToolbar.stories';

const { ServiceView, AdminOnContacts, WithMenuButton } = composeStories(stories);

describe('AppToolbar', () => {
  it("names the current route and shows the agent's status", () => {
    render(<ServiceView />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Atendimento');
    expect(screen.getByRole('button', { name: 'Status: online' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Expandir menu' })).toBeNull();
  });

  it("shows an admin's register with 'Sincronizar Templates' beside the status", () => {
    render(<AdminOnContacts />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Contatos');
    expect(screen.getByRole('button', { name: 'Sincronizar Templates' })).toBeTruthy();
  });

  it('opens the drawer from the menu button', async () => {
    const onMenuClick = vi.fn();
    render(<WithMenuButton onMenuClick={onMenuClick} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Expandir menu' }));
    expect(onMenuClick).toHaveBeenCalled();
  });
});
