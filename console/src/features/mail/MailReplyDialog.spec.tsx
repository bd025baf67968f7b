import { beforeEach, describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import * as stories from './MailReplyDialog.stories';

const s = composeStories(stories);

describe("MailReplyDialog ('Responder', seed 001 §2 and §5)", () => {
  beforeEach(() => {
    stories.sent.length = 0;
  });

  it('offers bold, italic, underline, lists, code block and quote, Cc, "Anexo" and "Cancelar"; an empty reply cannot be sent', () => {
    render(<s.Empty />);
    for (const name of ['Negrito', 'Itálico', 'Sublinhado', 'Lista', 'Lista numerada', 'Bloco de código', 'Citação']) expect(screen.getByRole('button', { name })).toBeTruthy();
    expect((screen.getByLabelText('Cc') as HTMLInputElement).value).toBe('gerente@cliente.example');
    expect(screen.getByRole('button', { name: 'Anexo' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends the formatted HTML, the Cc list and the attachments', async () => {
    render(<s.Draft />);
    const file = new File(['%PDF-1.4 boleto'], 'boleto.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByTestId('mail-attachment-input'), { target: { files: [file] } });
    expect(screen.getByText('boleto.pdf')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Cc'), { target: { value: 'gerente@cliente.example, financeiro@cliente.example' } });
    const send = screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement;
    expect(send.disabled).toBe(false);
    fireEvent.click(send);
    await waitFor(() => expect(stories.sent).toHaveLength(1));
    const draft = stories.sent[0]!;
    expect(draft.html).toContain('<strong>Cliente</strong>');
    expect(draft.html).toContain('<ul><li><p>item um</p></li></ul>');
    expect(draft.html).toContain('<blockquote>');
    expect(draft.cc).toEqual(['gerente@cliente.example', 'financeiro@cliente.example']);
    expect(draft.files.map((f) => f.name)).toEqual(['boleto.pdf']);
  });
});
