import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalErp, type LocalErp } from '@atendimento/integrations/erp/index';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { waitFor } from '../../helpers/wait-for';

/**
 * POST /api/erp-proxy (seed 000 §7) against the local ERP: both body forms with paging, the
 * tenant's timeout, Oracle's row limit, cancellation, and only the configured ERP reachable.
 */
let t: TestServer;
let erp: LocalErp;
let agent: string;
let admin: string;

async function configureErp(settings: Record<string, unknown> | null, sgbd = 'MSSQL'): Promise<void> {
  await t.patchAppConfig({ erp: settings as never, protheus: { sgbd, companies: [], branches: [] } });
}

const proxy = (body: unknown, query = '', token: string | null = agent) => t.api(`/api/erp-proxy${query}`, { method: 'POST', token, body });

beforeAll(async () => {
  t = await startTestServer();
  erp = await startLocalErp();
  agent = await t.tokenFor('acme', 'acme-agente');
  admin = await t.tokenFor('acme', 'acme-admin');
  await configureErp({ urls: [erp.url], timeoutMs: 2_000 });
});
afterAll(async () => {
  await erp?.close();
  await t?.close();
});

describe('ERP proxy', () => {
  it('pages the endpoint form (ENDPOINT, PORPAGINA, PAGINA, LISTAGEM, PARAMETROS with :FILTRO/:ORDEM)', async () => {
    const body = { ENDPOINT: 'clientes', PORPAGINA: 5, PAGINA: 1, LISTAGEM: 'A1_COD,A1_LOJA,A1_NOME', PARAMETROS: { ':FILTRO': "A1_EST = 'SP'", ':ORDEM': 'A1_NOME' } };
    const expected = erp.tables.SA1.filter((c) => c.A1_EST === 'SP').map((c) => String(c.A1_NOME)).sort((a, b) => a.localeCompare(b, 'pt-BR'));
    const names: string[] = [];
    for (let page = 1; ; page++) {
      const res = await proxy({ ...body, PAGINA: page }, '?path=/consulta');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ TOTAL: expected.length, REGISTROSRESULTADOS: res.body.RESULTADOS.length });
      expect(Object.keys(res.body.RESULTADOS[0])).toEqual(['A1_COD', 'A1_LOJA', 'A1_NOME']);
      names.push(...res.body.RESULTADOS.map((r: { A1_NOME: string }) => r.A1_NOME));
      if (!res.body.PROXIMO) break;
      expect(page).toBeLessThan(50);
    }
    expect(names).toEqual(expected);
  });

  it('pages the direct form (DIRECT, QUERY, ORDEM, FILTRO) answered with RETORNOS', async () => {
    const body = { DIRECT: true, QUERY: 'SELECT A3_COD, A3_NOME FROM SA3010', ORDEM: 'A3_COD', FILTRO: "A3_MSBLQL = '2'", PORPAGINA: 3, PAGINA: 1 };
    // Raw SQL is an admin's tool (docs/security.md): agents get 403.
    expect((await proxy(body, `?url=${encodeURIComponent(erp.url)}`)).status).toBe(403);
    const first = await proxy(body, `?url=${encodeURIComponent(erp.url)}`, admin);
    expect(first.status).toBe(200);
    expect(first.body.RETORNOS).toHaveLength(3);
    expect(first.body.RESULTADOS).toBeUndefined();
    expect(first.body.PROXIMO).toBe(true);
    const second = await proxy({ ...body, PAGINA: 2 }, '', admin);
    expect(second.body.RETORNOS[0].A3_COD > first.body.RETORNOS[2].A3_COD).toBe(true);
  });

  it('refuses a malformed body in pt-BR, a signed-out caller and a stranger who just signed up', async () => {
    const bad = await proxy({ ENDPOINT: 'clientes', PORPAGINA: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0]).toMatchObject({ field: 'PORPAGINA' });
    expect((await proxy({ ENDPOINT: 'clientes' }, '', null)).status).toBe(401);
    // The ERP's clients carry their CPF/CNPJ: not for a user given nothing yet (docs/security.md).
    const password = 'Girassol-Azul-2026';
    const signUp = await t.api('/api/users', { method: 'POST', body: { displayName: 'Estranho', email: 'estranho-erp@fora.test', password, confirmPassword: password } });
    expect(signUp.status, signUp.text).toBe(201);
    const refused = await proxy({ ENDPOINT: 'clientes', PORPAGINA: 5, PAGINA: 1 }, '?path=/consulta', signUp.body.data.accessToken);
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain('A1_CGC');
    expect((await proxy({ ENDPOINT: 'clientes', PORPAGINA: 5, PAGINA: 1 }, '?path=/consulta')).status).toBe(200);
  });

  it('reaches only the configured ERP: internal and metadata addresses are refused, also behind a redirect', async () => {
    for (const url of ['http://127.0.0.1:1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://2130706433/', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/', 'file:///etc/passwd']) {
      const res = await proxy({ ENDPOINT: 'clientes' }, `?url=${encodeURIComponent(url)}`);
      expect(res.status, url).toBe(400);
      expect(res.body.errorMessage).toBe('Endereço do ERP não permitido: use uma das URLs configuradas para a empresa.');
    }
    const before = erp.requests.length;
    erp.redirectNextTo('http://169.254.169.254/latest/meta-data/');
    const redirected = await proxy({ ENDPOINT: 'clientes' });
    expect(redirected.status).toBe(502);
    expect(redirected.body.error).toBe('erp_forbidden_target');
    expect(erp.requests.length).toBe(before + 1);
    const path = await proxy({ ENDPOINT: 'clientes' }, `?path=${encodeURIComponent('//169.254.169.254/x')}`);
    expect(path.status).toBe(400);
  });

  it("uses the tenant's timeout and cancels the ERP call when the caller goes away", async () => {
    await configureErp({ urls: [erp.url], timeoutMs: 300 });
    erp.delayNext(2_000);
    const slow = await proxy({ ENDPOINT: 'clientes' });
    expect(slow.status).toBe(504);
    expect(slow.body.errorMessage).toBe('O ERP não respondeu a tempo.');
    await configureErp({ urls: [erp.url], timeoutMs: 5_000 });

    erp.delayNext(3_000);
    const before = erp.requests.length;
    const url = new URL(t.baseUrl);
    const payload = JSON.stringify({ ENDPOINT: 'clientes' });
    const req = http.request({ hostname: url.hostname, port: url.port, path: '/api/erp-proxy', method: 'POST', headers: { host: t.hosts.acme, authorization: `Bearer ${agent}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } });
    req.on('error', () => undefined);
    req.end(payload);
    await waitFor(() => erp.requests.length > before, 'the ERP to receive the proxied call');
    req.destroy();
    await waitFor(() => erp.requests[erp.requests.length - 1]!.aborted, 'the ERP call to be aborted');
  });

  it("adds Oracle's row limit (apiRestSearchLimit) and answers 409 when no ERP is configured", async () => {
    await configureErp({ urls: [erp.url], searchLimit: 4 }, 'ORACLE');
    const body = { DIRECT: true, QUERY: 'SELECT A1_COD FROM SA1010', PORPAGINA: 50, PAGINA: 1 };
    const limited = await proxy(body, '', admin);
    expect(limited.body).toMatchObject({ TOTAL: 4, PROXIMO: false });
    expect((await proxy(body, '?limit=2', admin)).body.TOTAL).toBe(2);
    await configureErp(null);
    const none = await proxy(body, '', admin);
    expect(none.status).toBe(409);
    expect(none.body.errorMessage).toBe('Nenhum ERP configurado para esta empresa.');
  });
});

describe('integration form save and delete through the ERP (seed 000 §7)', () => {
  let admin: string;
  beforeAll(async () => {
    admin = await t.tokenFor('acme', 'acme-admin');
    await configureErp({ urls: [erp.url], timeoutMs: 2_000 });
    const res = await t.api('/api/integrations', {
      method: 'POST',
      token: admin,
      body: {
        name: 'Prospects',
        register: 'prospects',
        collection: 'prospects',
        idField: 'CODIGO',
        formMethodSave: 'POST',
        formPathSave: '/registros/prospects',
        formMethodDelete: 'DELETE',
        formPathDelete: '/registros/prospects',
        vjsfSchemaMaster: {
          type: 'object',
          required: ['NOME'],
          properties: { NOME: { type: 'string', title: 'Nome', minLength: 1, errorMessage: 'Informe o nome' }, CODIGO: { type: 'string', title: 'Código' }, CIDADE: { type: 'string', title: 'Cidade' } },
        },
      },
    });
    expect(res.status).toBe(201);
  });

  it('saves in the ERP first, then keeps the local copy under the code the ERP gave', async () => {
    const invalid = await t.api('/api/integration/prospects', { method: 'POST', token: admin, body: { CIDADE: 'Campinas' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toEqual([{ field: 'NOME', message: 'Informe o nome' }]);
    expect(erp.records.get('prospects')?.size ?? 0).toBe(0);

    const saved = await t.api('/api/integration/prospects', { method: 'POST', token: admin, body: { NOME: 'Mercearia São Jorge', CIDADE: 'Campinas', contactId: 'c-1', params: { x: 1 } } });
    expect(saved.status).toBe(201);
    expect(saved.body.meta).toEqual({ ok: true, message: 'Registro incluído' });
    const code = saved.body.data.CODIGO as string;
    expect(code).toMatch(/^\d{6}$/);
    expect(saved.body.data).toMatchObject({ id: code, NOME: 'Mercearia São Jorge', CIDADE: 'Campinas' });
    const inErp = erp.records.get('prospects')!.get(code)!;
    expect(inErp).toMatchObject({ NOME: 'Mercearia São Jorge', contactId: 'c-1' });
    expect(inErp.params).toBeUndefined();
  });

  it('keeps nothing locally when the ERP refuses or fails, and deletes in the ERP first', async () => {
    erp.failNext(500);
    const failed = await t.api('/api/integration/prospects', { method: 'POST', token: admin, body: { NOME: 'Falha' } });
    expect(failed.status).toBe(502);
    expect(failed.body.errorMessage).toBe('ERP indisponível no momento. Tente novamente.');
    const listed = await t.api('/api/integration/prospects', { token: admin });
    expect(listed.body.map((r: { NOME: string }) => r.NOME)).toEqual(['Mercearia São Jorge']);

    const code = listed.body[0].id as string;
    const duplicate = await t.api('/api/integration/prospects', { method: 'POST', token: admin, body: { CODIGO: code, NOME: 'Outro' } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errorMessage).toBe(`Código ${code} já existe`);

    const removed = await t.api(`/api/integration/prospects/${code}`, { method: 'DELETE', token: admin });
    expect(removed.status).toBe(200);
    expect(erp.records.get('prospects')!.has(code)).toBe(false);
    expect((await t.api(`/api/integration/prospects/${code}`, { token: admin })).status).toBe(404);
  });
});

describe('call-to-action documents (seed 000 §7)', () => {
  let admin: string;
  beforeAll(async () => {
    admin = await t.tokenFor('acme', 'acme-admin');
    await configureErp({ urls: [erp.url], timeoutMs: 5_000 });
    const res = await t.api('/api/integrations', {
      method: 'POST',
      token: admin,
      body: {
        name: 'Pedidos com documento',
        register: 'pedidos-doc',
        collection: 'pedidosdoc',
        idField: 'numero',
        callToAction: [
          { label: 'Pedido em PDF', method: 'POST', path: '/documentos/pedido', field: 'URL', fileName: 'pedido', fileExt: 'pdf' },
          { label: 'Ficha do cliente', method: 'POST', path: '/documentos/ficha-cliente', field: 'URL' },
        ],
        vjsfSchemaMaster: { type: 'object', required: ['numero'], properties: { numero: { type: 'string', title: 'Número' }, cliente: { type: 'string', title: 'Cliente' } } },
      },
    });
    expect(res.status).toBe(201);
    expect((await t.api('/api/integration/pedidosdoc', { method: 'POST', token: admin, body: { numero: '555', cliente: 'Padaria Pão de Mel' } })).status).toBe(201);
  });

  it('generates the document in the ERP and serves the PDF from the same origin', async () => {
    const res = await t.api('/api/integration/pedidosdoc/555/documents/0', { method: 'POST', token: admin });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 201, fileName: 'pedido-555.pdf', fileExt: 'pdf', url: expect.stringMatching(/^\/api\/integration\/pedidosdoc\/documents\/file\?src=/) });
    const file = await t.api(res.body.data.url, { token: admin });
    expect(file.status).toBe(200);
    expect(String(file.headers['content-type'])).toMatch(/application\/pdf/);
    expect(file.text.startsWith('%PDF')).toBe(true);
  });

  it('answers the ERP refusal, a missing set, and never fetches a file outside the ERP', async () => {
    const refused = await t.api('/api/integration/pedidosdoc/555/documents/1', { method: 'POST', token: admin });
    expect(refused.status).toBe(400);
    expect(refused.body.errorMessage).toBe('Cliente não encontrado no ERP');
    expect((await t.api('/api/integration/pedidosdoc/555/documents/2', { method: 'POST', token: admin })).status).toBe(404);
    expect((await t.api('/api/integration/pedidosdoc/999/documents/0', { method: 'POST', token: admin })).status).toBe(404);
    const outside = await t.api(`/api/integration/pedidosdoc/documents/file?src=${encodeURIComponent('http://169.254.169.254/latest/meta-data')}`, { token: admin });
    expect(outside.status).toBe(400);
  });
});
