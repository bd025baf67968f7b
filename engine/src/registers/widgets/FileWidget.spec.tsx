import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import { recordedCalls } from '../../stories/fakeApi';
import * as stories from './FileWidget.stories';
import { UPLOAD_ACCEPT } from './FileWidget';

const { AnyFile, Photo, Pdf, Refused } = composeStories(stories);
const submitted = () => JSON.parse(screen.getByTestId('submitted').textContent || 'null');
const pick = (label: string, file: File) => fireEvent.change(screen.getByLabelText(label), { target: { files: [file] } });
const uploads = () => recordedCalls().filter((call) => call.method === 'POST' && call.path.startsWith('/api/upload'));

describe('FileWidget', () => {
  it('uploads a picked file and keeps its URL, with a link to open it and Remover', async () => {
    const user = userEvent.setup();
    render(<AnyFile />);
    expect(screen.getByLabelText('Anexo').getAttribute('accept')).toBe(UPLOAD_ACCEPT);
    pick('Anexo', new File(['%PDF'], 'tabela.pdf', { type: 'application/pdf' }));
    const link = await screen.findByRole('link', { name: messages.registers.openFile });
    expect(link.getAttribute('href')).toBe('/files/acme/tabela.pdf');
    expect(uploads().map((call) => call.path)).toEqual(['/api/upload']);
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ anex: '/files/acme/tabela.pdf' });
    await user.click(screen.getByRole('button', { name: messages.registers.remove }));
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({});
  });

  it('a photo shows its preview and uploads as an image', async () => {
    render(<Photo />);
    expect(screen.getByRole('img', { name: 'Foto' }).getAttribute('src')).toBe('/files/acme/loja.png');
    pick('Foto', new File(['x'], 'nova.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getByRole('img', { name: 'Foto' }).getAttribute('src')).toBe('/files/acme/nova.png'));
    expect(uploads().map((call) => call.path)).toEqual(['/api/upload?accept=image']);
  });

  it("refuses anything but a PDF before uploading ('Envie um arquivo PDF.')", () => {
    render(<Pdf />);
    pick('Catálogo', new File(['x'], 'foto.png', { type: 'image/png' }));
    expect(screen.getByText(messages.registers.pdfOnly)).toBeTruthy();
    expect(uploads()).toEqual([]);
  });

  it("shows the server's refusal under the field", async () => {
    render(<Refused />);
    pick('Anexo', new File(['x'], 'virus.exe', { type: 'application/octet-stream' }));
    expect(await screen.findByText('Tipo de arquivo não permitido.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: messages.registers.openFile })).toBeNull();
  });
});
