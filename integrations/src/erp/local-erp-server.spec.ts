import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createErpClient, createErpLookups, clientKey, ErpError, erpUrl } from './erp-client';
import { rowsOf, withRowLimit } from './erp-protocol';
import { startLocalErp, type LocalErp } from './local-erp-server';

let erp: LocalErp;
beforeAll(async () => {
  erp = await startLocalErp();
});
afterAll(() => erp.close());

const client = () => createErpClient({ fetch, timeoutMs: 5_000 });
const target = () => ({ baseUrl: erp.url, path: '/consulta' });

describe('local ERP', () => {
  it('answers the endpoint form with RESULTADOS, TOTAL, REGISTROSRESULTADOS and PROXIMO, page by page', async () => {
    const body = { ENDPOINT: 'clientes', PORPAGINA: 5, PAGINA: 1, LISTAGEM: 'A1_COD,A1_LOJA,A1_NOME', PARAMETROS: { ':FILTRO': "A1_EST = 'SP'", ':ORDEM': 'A1_NOME' } };
    const first = await client().query(target(), body);
    const expectedTotal = erp.tables.SA1.filter((c) => c.A1_EST === 'SP').length;
    expect(first).toMatchObject({ REGISTROSRESULTADOS: 5, TOTAL: expectedTotal, PROXIMO: true });
    expect(Object.keys(first.RESULTADOS![0]!)).toEqual(['A1_COD', 'A1_LOJA', 'A1_NOME']);
    const names: string[] = [];
    let page = 1;
    for (;;) {
      const answer = await client().query(target(), { ...body, PAGINA: page });
      names.push(...rowsOf(answer).map((r) => String(r.A1_NOME)));
      if (!answer.PROXIMO) break;
      page++;
    }
    expect(names).toHaveLength(expectedTotal);
    expect([...names].sort((a, b) => a.localeCompare(b, 'pt-BR'))).toEqual(names);
  });

  it('accepts PARAMETROS as a list and named column parameters', async () => {
    const someone = erp.tables.SA1[10]!;
    const answer = await client().query(target(), { ENDPOINT: 'clientes', PORPAGINA: 5, PAGINA: 1, PARAMETROS: { ':A1_CGC': String(someone.A1_CGC) } });
    expect(rowsOf(answer).map((r) => r.A1_CGC)).toContain(someone.A1_CGC);
    const res = await fetch(`${erp.url}/consulta`, { method: 'POST', body: JSON.stringify({ ENDPOINT: 'vendedores', PARAMETROS: [{ ':FILTRO': "A3_COD = '000001'" }, { ':ORDEM': 'A3_NOME' }] }) });
    expect((await res.json()).RESULTADOS).toHaveLength(1);
  });

  it('answers the direct form with RETORNOS, applying FILTRO, ORDEM and the Oracle row limit', async () => {
    const direct = { DIRECT: true as const, QUERY: 'SELECT A3_COD, A3_NOME FROM SA3010', ORDEM: 'A3_NOME DESC', FILTRO: "A3_MSBLQL = '2'", PORPAGINA: 4, PAGINA: 2 };
    const answer = await client().query(target(), direct);
    expect(answer.TOTAL).toBe(erp.tables.SA3.length);
    expect(answer.RETORNOS).toHaveLength(4);
    expect(answer.RESULTADOS).toBeUndefined();
    const limited = await client().query(target(), withRowLimit({ ...direct, PORPAGINA: 100, PAGINA: 1 }, 3));
    expect(limited).toMatchObject({ TOTAL: 3, REGISTROSRESULTADOS: 3, PROXIMO: false });
  });

  it('refuses bad bodies and bad filters with a 400 and a message', async () => {
    const err = await client().query(target(), { ENDPOINT: 'clientes', PORPAGINA: 5, PAGINA: 1, PARAMETROS: { ':FILTRO': "A1_NOME LIKE 'x" } }).catch((e) => e);
    expect(err).toBeInstanceOf(ErpError);
    expect(err).toMatchObject({ kind: 'rejected', status: 400 });
    expect(err.message).toMatch(/Erro de sintaxe/);
    const unknown = await client().query(target(), { ENDPOINT: 'nao-existe', PORPAGINA: 5, PAGINA: 1, PARAMETROS: {} }).catch((e) => e);
    expect(unknown).toMatchObject({ kind: 'rejected', status: 404 });
  });

  it('finds clients by key and by CPF/CNPJ, and salesmen by code', async () => {
    const lookups = createErpLookups(client(), target());
    const [a, b] = [erp.tables.SA1[0]!, erp.tables.SA1[7]!];
    const found = await lookups.clientsByKeys([clientKey(a as any), clientKey(b as any), 'lixo!']);
    expect(found.map(clientKey).sort()).toEqual([clientKey(a as any), clientKey(b as any)].sort());
    expect((await lookups.clientsByCgc(String(b.A1_CGC).replace(/^(\d{2})(\d{3})/, '$1.$2.'))).map((c) => c.A1_CGC)).toContain(b.A1_CGC);
    expect(await lookups.clientsByCgc('00000000000')).toEqual([]);
    expect((await lookups.salesmenByCodes(['000002']))[0]).toMatchObject({ A3_COD: '000002' });
  });

  it('keeps records written by integration forms and lists them through the endpoint form', async () => {
    const created = await client().call({ baseUrl: erp.url, path: '/registros/pedidos', method: 'POST', body: { cliente: '000001', valor: 150.5 } });
    expect(created.status).toBe(201);
    const data = (created.body as any).data;
    expect(data).toMatchObject({ cliente: '000001', CODIGO: expect.stringMatching(/^\d{6}$/) });
    const listed = await client().query(target(), { ENDPOINT: 'pedidos', PORPAGINA: 5, PAGINA: 1, PARAMETROS: {} });
    expect(rowsOf(listed)).toContainEqual(data);
    await client().call({ baseUrl: erp.url, path: '/registros/pedidos', method: 'DELETE', body: { CODIGO: data.CODIGO } });
    const again = await client().call({ baseUrl: erp.url, path: `/registros/pedidos/${data.CODIGO}`, method: 'DELETE' }).catch((e) => e);
    expect(again).toMatchObject({ kind: 'rejected', status: 404 });
  });

  it('generates a real PDF document and serves it at the URL it answers', async () => {
    const c = erp.tables.SA1[3]!;
    const res = await client().call({ baseUrl: erp.url, path: '/documentos/ficha-cliente', method: 'POST', body: { A1_COD: c.A1_COD, A1_LOJA: c.A1_LOJA } });
    expect(res.status).toBe(201);
    const url = (res.body as any).RETORNOS[0].URL as string;
    expect(url.startsWith(erp.url)).toBe(true);
    const pdf = await fetch(url);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1')).toContain('Ficha Cadastral do Cliente');
  });

  it('reports a cancelled call as aborted, and a slow one as a timeout', async () => {
    erp.delayNext(2_000);
    const controller = new AbortController();
    const pending = client().query(target(), { ENDPOINT: 'empresas', PORPAGINA: 5, PAGINA: 1, PARAMETROS: {} }, controller.signal).catch((e) => e);
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toMatchObject({ kind: 'aborted' });
    await expect.poll(() => erp.requests.at(-1)?.aborted).toBe(true);
    erp.delayNext(2_000);
    const slow = await createErpClient({ fetch, timeoutMs: 150 }).query(target(), { ENDPOINT: 'empresas', PORPAGINA: 5, PAGINA: 1, PARAMETROS: {} }).catch((e) => e);
    expect(slow).toMatchObject({ kind: 'timeout' });
  });

  it('keeps paths under the base URL', () => {
    expect(erpUrl('http://erp.local:8080/rest', '/consulta?x=1').href).toBe('http://erp.local:8080/rest/consulta?x=1');
    for (const bad of ['../admin', '/a/../../b', '//evil.com/x', 'http://evil.com/', '/%2e%2e/x', '/a%2fb']) {
      expect(() => erpUrl('http://erp.local:8080/rest', bad), bad).toThrow(ErpError);
    }
  });
});
