import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './PasswordField.stories';

const { Default, WithError } = composeStories(stories);

describe('PasswordField', () => {
  it("hides the password until 'Mostrar senha', then offers 'Ocultar senha'", async () => {
    render(<Default />);
    const input = screen.getByLabelText('Senha') as HTMLInputElement;
    expect(input.type).toBe('password');
    expect(input.value).toBe('segredo1');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Mostrar senha' }));
    expect(input.type).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Ocultar senha' }));
    expect(input.type).toBe('password');
  });

  it('shows its validation message', () => {
    render(<WithError />);
    expect(screen.getByText('A senha deve conter pelo menos 6 caracteres')).toBeTruthy();
    expect(screen.getByLabelText('Senha').getAttribute('aria-invalid')).toBe('true');
  });
});
