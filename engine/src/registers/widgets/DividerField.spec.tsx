import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './DividerField.stories';

const { SectionTitle, UiTitle } = composeStories(stories);

describe('DividerField', () => {
  it('draws the section title between the fields and submits nothing for it', async () => {
    const user = userEvent.setup();
    render(<SectionTitle />);
    const divider = screen.getByRole('separator');
    expect(divider.textContent).toBe('Bloqueios');
    // Drawn between the name and the switch, in schema order.
    const name = screen.getByRole('textbox', { name: 'Nome' });
    const toggle = screen.getByRole('checkbox', { name: 'Envio de mensagens' });
    expect(name.compareDocumentPosition(divider) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(divider.compareDocumentPosition(toggle) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.type(name, 'Maria');
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(JSON.parse(screen.getByTestId('submitted').textContent!)).toMatchObject({ displayName: 'Maria' });
  });

  it("prefers the UI schema's title", () => {
    render(<UiTitle />);
    expect(screen.getByRole('separator').textContent).toBe('Dados do contato');
  });
});
