import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { messages } from '@atendimento/schemas';
import { recordedCalls } from '../../stories/fakeApi';
import * as stories from './ImportDialog.stories';
import { importsDone, resetImportsDone } from './ImportDialog.stories';

const { Contacts, SomeRowsFailed, Refused, BigFileInBackground, BigFileFailed } = composeStories(stories);
const dialog = () => screen.getByRole('dialog', { name: messages.registers.importTitle });
const pick = (file: File) => fireEvent.change(within(dialog()).getByLabelText(messages.registers.import), { target: { files: [file] } });
const send = () => fireEvent.click(within(dialog()).getByRole('button', { name: messages.registers.importSend }));
const csv = (name = 'contatos.csv') => new File(['displayName,phone\nMaria,5511987654321\n'], name, { type: 'text/csv' });
const imports = () => recordedCalls().filter((call) => call.method === 'POST' && call.path === '/api/contacts/import');

beforeEach(() => resetImportsDone());
afterEach(() => vi.restoreAllMocks());

describe("ImportDialog ('Importar CSV', seed 000 §2, §5)", () => {
  it("asks for a file ('Informe o arquivo a ser importado') and takes only .csv", () => {
    render(<Contacts />);
    expect(within(dialog()).getByText(messages.registers.importHint)).toBeTruthy();
    send();
    expect(within(dialog()).getByRole('alert').textContent).toBe(messages.validation.importFileRequired);
    pick(new File(['x'], 'contatos.xlsx'));
    expect(within(dialog()).getByText('contatos.xlsx')).toBeTruthy();
    send();
    expect(within(dialog()).getByRole('alert').textContent).toBe(messages.registers.importOnlyCsv);
    expect(imports()).toEqual([]);
  });

  it("sends the .csv with the session token, toasts the server's message as a success and reports the import", async () => {
    render(<Contacts />);
    pick(csv());
    send();
    expect(await screen.findByText('2 registros importados.')).toBeTruthy();
    expect(importsDone()).toBe(1);
    const [call] = imports();
    expect(call!.headers.authorization).toBe('Bearer story-token');
    expect(((call!.body as FormData).get('file') as File).name).toBe('contatos.csv');
  });

  it('shows a partly failed import as a warning', async () => {
    render(<SomeRowsFailed />);
    pick(csv());
    send();
    const toast = (await screen.findByText(/1 com erro/)).closest('[role="alert"]')!;
    expect(toast.className).toMatch(/Warning/i);
    expect(importsDone()).toBe(1);
  });

  it("keeps the dialog open with the server's refusal", async () => {
    render(<Refused />);
    pick(csv());
    send();
    await waitFor(() => expect(within(dialog()).getByRole('alert').textContent).toBe('O arquivo não tem a coluna displayName.'));
    expect(importsDone()).toBe(0);
  });

  it("follows a big file's background import: 'Importando… {processed} de {total}' polled every second, then the toast", async () => {
    render(<BigFileInBackground />);
    pick(csv());
    send();
    expect(await within(dialog()).findByText('Importando… 0 de 50.000')).toBeTruthy();
    expect(within(dialog()).getByRole('button', { name: messages.registers.importSend }).hasAttribute('disabled')).toBe(true);
    await waitFor(() => expect(within(dialog()).getByText('Importando… 25.000 de 50.000')).toBeTruthy(), { timeout: 2500 });
    expect(within(dialog()).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    expect(importsDone()).toBe(0);
    const toast = (await screen.findByText(/^49990 registro\(s\) importado\(s\); 10 linha\(s\) com erro/, {}, { timeout: 2500 })).closest('[role="alert"]')!;
    expect(toast.className).toMatch(/Warning/i);
    expect(importsDone()).toBe(1);
    expect(recordedCalls().filter((call) => call.path === '/api/imports/job-grande')).toHaveLength(2);
    expect(recordedCalls().find((call) => call.path === '/api/imports/job-grande')!.headers.authorization).toBe('Bearer story-token');
  });

  it("keeps a failed background import's message in the dialog and refreshes the rows it imported", async () => {
    render(<BigFileFailed />);
    pick(csv());
    send();
    await waitFor(() => expect(within(dialog()).getByRole('alert').textContent).toMatch(/^A importação parou nas linhas 20002 a 20501/), { timeout: 2500 });
    expect(within(dialog()).queryByRole('progressbar')).toBeNull();
    expect(importsDone()).toBe(1);
  });

  it('downloads the CSV template of the register', async () => {
    const created = vi.fn((_: Blob | MediaSource) => 'blob:modelo');
    vi.spyOn(URL, 'createObjectURL').mockImplementation(created);
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    render(<Contacts />);
    fireEvent.click(within(dialog()).getByRole('button', { name: messages.registers.importTemplate }));
    await waitFor(() => expect(created).toHaveBeenCalledTimes(1));
    expect(recordedCalls().some((call) => call.method === 'GET' && call.path === '/api/contacts/csvTemplate')).toBe(true);
  });
});
