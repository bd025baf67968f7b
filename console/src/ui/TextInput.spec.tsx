import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen } from '@testing-library/react';
import * as stories from './TextInput.stories';

const s = composeStories(stories);

describe('TextInput (the filled fields of the chat list)', () => {
  it('is reached by its label or its aria-label and takes what is typed', () => {
    render(<s.Empty />);
    const phone = screen.getByLabelText('Telefone') as HTMLInputElement;
    expect(phone.getAttribute('inputmode')).toBe('tel');
    fireEvent.change(phone, { target: { value: '11987654321' } });
    expect(phone.value).toBe('11987654321');
    expect(phone.getAttribute('aria-invalid')).toBe('false');
    const search = screen.getByRole('textbox', { name: 'Buscar chats' }) as HTMLInputElement;
    expect(search.placeholder).toBe('Buscar');
  });

  it('marks an invalid value and describes the field with its helper text', () => {
    render(<s.Invalid />);
    const phone = screen.getByLabelText('Telefone');
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Telefone', description: 'Telefone inválido' })).toBe(phone);
  });
});
