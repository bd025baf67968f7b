import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './TenantFallback.stories';

const { Blocked, Unreachable } = composeStories(stories);

describe('TenantFallback', () => {
  it("blocks an inactive tenant with 'Acesso Desabilitado.'", () => {
    render(<Blocked />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Acesso Desabilitado.');
    expect(alert.textContent).toContain('Tenant não ativo (contactar administrador)');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it("says 'Não foi possivel contactar o sistema' with what to do, and reloads on demand", async () => {
    const reload = vi.fn();
    const original = window.location;
    Object.defineProperty(window, 'location', { configurable: true, value: { ...original, reload } });
    try {
      render(<Unreachable />);
      expect(screen.getByRole('heading', { name: 'Não foi possivel contactar o sistema' })).toBeTruthy();
      expect(screen.getByText(/Aguarde um minuto e recarregue a página/)).toBeTruthy();
      expect(screen.getByText(/contacte o administrador/)).toBeTruthy();
      await userEvent.setup().click(screen.getByRole('button', { name: 'Recarregar' }));
      expect(reload).toHaveBeenCalled();
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: original });
    }
  });
});
