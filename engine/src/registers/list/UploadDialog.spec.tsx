import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { recordedCalls } from '../../stories/fakeApi';
import * as stories from './UploadDialog.stories';

const { Default, Refused } = composeStories(stories);

const pick = (name: string) => fireEvent.change(screen.getByLabelText('Enviar arquivo'), { target: { files: [new File(['%PDF-1.4'], name, { type: 'application/pdf' })] } });

describe('UploadDialog', () => {
  it("sends the chosen file and says 'Arquivo enviado:' with its link", async () => {
    render(<Default />);
    expect(screen.getByText('Nenhum arquivo selecionado')).toBeTruthy();
    pick('tabela-precos.pdf');
    const link = await screen.findByRole('link', { name: '/api/files/acme/tabela-precos.pdf' });
    expect(link.getAttribute('href')).toBe('/api/files/acme/tabela-precos.pdf');
    expect(link.parentElement?.textContent).toBe('Arquivo enviado: /api/files/acme/tabela-precos.pdf');
    expect(screen.getByText('tabela-precos.pdf')).toBeTruthy();
    expect(recordedCalls().filter((c) => c.path === '/api/upload' && c.method === 'POST')).toHaveLength(1);
  });

  it("shows the server's refusal", async () => {
    render(<Refused />);
    pick('enorme.pdf');
    expect(await screen.findByText('Arquivo maior que 100 MB.')).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
