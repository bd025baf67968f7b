import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './NegotiationShow.stories';

const { WithPhotos, Empty } = composeStories(stories);

describe('NegotiationShow', () => {
  it('walks the photos with Anterior / Próxima and links the order and the sheet', async () => {
    const user = userEvent.setup();
    render(<WithPhotos />);
    expect(screen.getByRole('img', { name: 'Frente' })).toBeTruthy();
    expect(screen.getByText(/1 \/ 3/)).toBeTruthy();
    expect((screen.getByRole('button', { name: messages.registers.previous }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: messages.registers.next }));
    expect(screen.getByRole('img', { name: 'Lateral' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: messages.registers.next }));
    expect(screen.getByText(/3 \/ 3/)).toBeTruthy();
    expect((screen.getByRole('button', { name: messages.registers.next }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('link', { name: messages.registers.order }).getAttribute('href')).toBe('https://erp.exemplo.com/pedidos/123');
    expect(screen.getByRole('link', { name: messages.registers.sheet }).getAttribute('href')).toBe('https://erp.exemplo.com/fichas/123');
  });

  it("says 'Sem imagem' and disables the links when there is nothing to show", () => {
    render(<Empty />);
    expect(screen.getByText(messages.registers.noImage)).toBeTruthy();
    expect((screen.getByRole('button', { name: messages.registers.order }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: messages.registers.sheet }) as HTMLButtonElement).disabled).toBe(true);
  });
});
