import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERP_ENDPOINTS, generateErpTables, tableOf, type ErpRow, type ErpTables } from './erp-data';
import type { renderErpDocument } from './erp-pdf';
import { isDirectQuery, parseErpQuery, type ErpAnswer } from './erp-protocol';
import { ErpSqlError, filterRows, parseFilter, parseOrder, parseSelect, sortRows, type Condition } from './erp-sql';

/**
 * A small Protheus-style ERP on loopback for `npm start` and the tests: a stand-in for the
 * customer's ERP, never for the product. It speaks the proxy protocol (erp-protocol.ts) over
 * companies, clients, salesmen and drivers, keeps records written by integration forms in
 * memory, and generates real PDF documents for call-to-action buttons. Routes, under `basePath`
 * (default '/rest'):
 *
 *   POST   /consulta                  query, endpoint or direct form
 *   POST   /registros/:tabela         create a record (answers { status, message, data })
 *   PUT    /registros/:tabela/:id     update;  DELETE /registros/:tabela[/:id] delete
 *   POST   /documentos/:tipo          generate a PDF (ficha-cliente, pedido, or any body) → 201 { RETORNOS: [{ URL }] }
 *   GET    /arquivos/:nome            the generated PDF
 *   GET    /health
 */

export interface LocalErpOptions {
  port?: number;
  host?: string;
  basePath?: string;
  seed?: number;
  /** Answers carry this header so tests can tell which ERP answered. */
  name?: string;
}

export interface ErpRequestLog {
  method: string;
  path: string;
  body: unknown;
  /** The caller went away before the answer (the product's proxy cancelled). */
  aborted: boolean;
}

type Handled = { status: number; body?: unknown; headers?: Record<string, string>; raw?: Buffer };

const json = (status: number, body: unknown): Handled => ({ status, body });
const erpError = (status: number, message: string): Handled => json(status, { status: 'erro', message, errorMessage: message });

function project(rows: ErpRow[], columns: string[] | null): ErpRow[] {
  if (!columns) return rows;
  return rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] ?? null])) as ErpRow);
}

function columnsOf(listagem: unknown): string[] | null {
  if (listagem === undefined || listagem === true || listagem === false) return null;
  const list = Array.isArray(listagem) ? listagem : String(listagem).split(',');
  const cols = list.map((c) => String(c).trim().toUpperCase()).filter(Boolean);
  return cols.length ? cols : null;
}

export async function startLocalErp(options: LocalErpOptions = {}) {
  const tables: ErpTables & Record<string, ErpRow[]> = { ...generateErpTables({ seed: options.seed }) };
  const records = new Map<string, Map<string, Record<string, unknown>>>();
  const files = new Map<string, Buffer>();
  const requests: ErpRequestLog[] = [];
  const scripted: { kind: 'fail'; status: number; body: unknown }[] = [];
  let delayNextMs = 0;
  let redirectNext: string | null = null;
  let sequence = 0;
  const basePath = (options.basePath ?? '/rest').replace(/\/$/, '');
  let baseUrl = '';

  function checkColumns(table: ErpRow[], columns: string[] | null): void {
    const sample = table[0];
    if (!sample || !columns) return;
    for (const c of columns) if (!(c in sample)) throw new ErpSqlError(`coluna desconhecida ${c}`, 0);
  }

  function page(rows: ErpRow[], porPagina: number, pagina: number) {
    const start = (pagina - 1) * porPagina;
    const slice = rows.slice(start, start + porPagina);
    return { slice, total: rows.length, proximo: start + porPagina < rows.length };
  }

  function rowsOfTable(name: string): ErpRow[] | null {
    const table = tableOf(name);
    if (table) return tables[table];
    const written = records.get(name.toLowerCase());
    return written ? ([...written.values()] as ErpRow[]) : null;
  }

  function consulta(body: unknown): Handled {
    const parsed = parseErpQuery(body);
    if (!parsed.ok) return erpError(400, parsed.problems.map((p) => p.message).join('; '));
    const q = parsed.query;
    try {
      if (isDirectQuery(q)) {
        const select = parseSelect(q.QUERY);
        const table = rowsOfTable(select.table);
        if (!table) return erpError(404, `Tabela desconhecida: ${select.table}`);
        checkColumns(table, select.columns);
        const extra = parseFilter(q.FILTRO);
        const where: Condition | null = select.where && extra ? { kind: 'and', left: select.where, right: extra } : select.where ?? extra;
        const order = q.ORDEM ? parseOrder(q.ORDEM) : select.order;
        const rows = sortRows(filterRows(table, where), order);
        const { slice, total, proximo } = page(rows, q.PORPAGINA, q.PAGINA);
        const answer: ErpAnswer = { REGISTROSRESULTADOS: slice.length, TOTAL: total, PAGINA: q.PAGINA, PORPAGINA: q.PORPAGINA, PROXIMO: proximo, RETORNOS: project(slice, select.columns) };
        return json(200, answer);
      }
      const endpoint = ERP_ENDPOINTS[q.ENDPOINT.toLowerCase()];
      const table = endpoint ? tables[endpoint.table] : records.has(q.ENDPOINT.toLowerCase()) ? rowsOfTable(q.ENDPOINT) : null;
      if (!table) return erpError(404, `Endpoint desconhecido: ${q.ENDPOINT}`);
      let where = parseFilter(q.PARAMETROS[':FILTRO']);
      // Other named parameters that name a column filter by equality (':A1_CGC': '...').
      for (const [key, value] of Object.entries(q.PARAMETROS)) {
        const column = key.slice(1);
        if (key === ':FILTRO' || key === ':ORDEM' || !table[0] || !(column in table[0])) continue;
        const eq: Condition = { kind: 'compare', op: '=', left: { kind: 'column', name: column }, right: { kind: 'literal', value } };
        where = where ? { kind: 'and', left: where, right: eq } : eq;
      }
      const columns = columnsOf(q.LISTAGEM);
      checkColumns(table, columns);
      const rows = sortRows(filterRows(table, where), parseOrder(q.PARAMETROS[':ORDEM'] ?? endpoint?.order));
      const { slice, total, proximo } = page(rows, q.PORPAGINA, q.PAGINA);
      const answer: ErpAnswer = { REGISTROSRESULTADOS: slice.length, TOTAL: total, PAGINA: q.PAGINA, PORPAGINA: q.PORPAGINA, PROXIMO: proximo, RESULTADOS: project(slice, columns) };
      return json(200, answer);
    } catch (error) {
      if (error instanceof ErpSqlError) return erpError(400, `Erro de sintaxe: ${error.message}`);
      throw error;
    }
  }

  function writeRecord(method: string, tabela: string, id: string | undefined, body: unknown): Handled {
    if (!/^[a-z0-9_]{1,60}$/i.test(tabela)) return erpError(400, 'Tabela inválida');
    const store = records.get(tabela.toLowerCase()) ?? new Map<string, Record<string, unknown>>();
    records.set(tabela.toLowerCase(), store);
    const item = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
    if (method === 'DELETE') {
      const key = id ?? (item?.CODIGO !== undefined ? String(item.CODIGO) : undefined);
      if (!key || !store.has(key)) return erpError(404, 'Registro não encontrado no ERP');
      store.delete(key);
      return json(200, { status: 'ok', message: 'Registro excluído' });
    }
    if (!item || Object.keys(item).length === 0) return erpError(400, 'Informe os campos do registro');
    if (method === 'PUT') {
      const key = id ?? (item.CODIGO !== undefined ? String(item.CODIGO) : undefined);
      if (!key || !store.has(key)) return erpError(404, 'Registro não encontrado no ERP');
      const data = { ...store.get(key), ...item, CODIGO: key };
      store.set(key, data);
      return json(200, { status: 'ok', message: 'Registro alterado', data });
    }
    const key = item.CODIGO !== undefined && item.CODIGO !== null && item.CODIGO !== '' ? String(item.CODIGO) : String(++sequence).padStart(6, '0');
    if (store.has(key)) return erpError(409, `Código ${key} já existe`);
    const data = { ...item, CODIGO: key };
    store.set(key, data);
    return json(201, { status: 'ok', message: 'Registro incluído', data });
  }

  async function documento(tipo: string, body: unknown): Promise<Handled> {
    const item = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const company = tables.SM0[0]!;
    const number = String(++sequence).padStart(6, '0');
    let content: Parameters<typeof renderErpDocument>[0];
    const base = { number, company: { name: String(company.M0_NOMECOM), cnpj: String(company.M0_CGC), city: `${company.M0_CIDENT}/${company.M0_ESTENT}` }, issuedAt: new Date() };
    if (tipo === 'ficha-cliente') {
      const client = tables.SA1.find((c) => c.A1_COD === item.A1_COD && (item.A1_LOJA === undefined || c.A1_LOJA === item.A1_LOJA));
      if (!client) return erpError(404, 'Cliente não encontrado no ERP');
      const salesman = tables.SA3.find((s) => s.A3_COD === client.A1_VEND);
      content = {
        ...base,
        title: 'Ficha Cadastral do Cliente',
        fields: [
          ['Código', `${client.A1_COD}/${client.A1_LOJA}`], ['Razão social', String(client.A1_NOME)], ['Nome fantasia', String(client.A1_NREDUZ)],
          ['CPF/CNPJ', String(client.A1_CGC)], ['Endereço', `${client.A1_END} - ${client.A1_BAIRRO}`], ['Cidade', `${client.A1_MUN}/${client.A1_EST}`],
          ['Telefone', `(${client.A1_DDD}) ${client.A1_TEL}`], ['E-mail', String(client.A1_EMAIL)], ['Vendedor', salesman ? `${salesman.A3_COD} - ${salesman.A3_NOME}` : '-'],
        ],
      };
    } else {
      const items = Array.isArray(item.itens) ? (item.itens as Record<string, unknown>[]) : [];
      content = {
        ...base,
        title: tipo === 'pedido' ? 'Pedido de Venda' : `Documento ${tipo}`,
        fields: Object.entries(item)
          .filter(([k, v]) => k !== 'itens' && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'))
          .slice(0, 30)
          .map(([k, v]) => [k, String(v)]),
        items: items.slice(0, 40).map((i) => ({ description: String(i.descricao ?? i.produto ?? 'Item'), quantity: Number(i.quantidade ?? 1) || 1, unitPrice: Number(i.valor ?? i.preco ?? 0) || 0 })),
      };
    }
    // pdfkit loads with the first document: the product server imports this module's types, not a PDF engine.
    const pdf = await (await import('./erp-pdf')).renderErpDocument(content);
    const name = `${tipo.replace(/[^a-z0-9-]/gi, '')}-${number}-${randomBytes(6).toString('hex')}.pdf`;
    files.set(name, pdf);
    return json(201, { status: 'ok', RETORNOS: [{ URL: `${baseUrl}${basePath}/arquivos/${name}`, NOME: name, TIPO: 'application/pdf' }] });
  }

  /**
   * The quotes portal page a tenant frames ('Orçamentos', seed 001 §8): the client's quotes by
   * `?cliente=&loja=`. The ERP's own web page, so HTML; three quotes derived from the code.
   */
  function orcamentos(query: unknown): Handled {
    const q = query && typeof query === 'object' ? (query as Record<string, unknown>) : {};
    const client = tables.SA1.find((c) => c.A1_COD === q.cliente && c.A1_LOJA === q.loja);
    const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const seed = Number(String(q.cliente ?? '0').replace(/\D/g, '')) || 1;
    const rows = client
      ? [0, 1, 2].map((k) => `<tr><td>${String(9000 + seed * 3 + k).padStart(6, '0')}</td><td>${['Em aberto', 'Aprovado', 'Expirado'][k]}</td><td>R$ ${((seed * 137 + k * 911) % 9000 + 250).toLocaleString('pt-BR', { minimumFractionDigits: 2 })}</td></tr>`).join('')
      : '';
    const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Orçamentos</title>
<style>body{font-family:sans-serif;margin:16px;color:#222}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:6px;text-align:left}</style></head>
<body><h1>Orçamentos</h1>${client ? `<p>Cliente ${esc(client.A1_COD)}/${esc(client.A1_LOJA)} — ${esc(client.A1_NOME)}</p><table><thead><tr><th>Número</th><th>Situação</th><th>Valor</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>Cliente não encontrado no ERP.</p>'}</body></html>`;
    return { status: client ? 200 : 404, raw: Buffer.from(html, 'utf8'), headers: { 'content-type': 'text/html; charset=utf-8' } };
  }

  async function handle(method: string, path: string, body: unknown): Promise<Handled> {
    if (!path.startsWith(basePath + '/')) return erpError(404, 'Rota desconhecida');
    const rest = path.slice(basePath.length);
    if (method === 'GET' && rest === '/health') return json(200, { ok: true });
    if (method === 'POST' && rest === '/consulta') return consulta(body);
    let m = /^\/registros\/([^/]+)(?:\/([^/]+))?$/.exec(rest);
    if (m && ['POST', 'PUT', 'DELETE'].includes(method)) return writeRecord(method, decodeURIComponent(m[1]!), m[2] ? decodeURIComponent(m[2]) : undefined, body);
    if (method === 'GET' && rest === '/orcamentos') return orcamentos(body);
    m = /^\/documentos\/([a-z0-9-]{1,40})$/i.exec(rest);
    if (m && (method === 'POST' || method === 'GET')) return documento(m[1]!.toLowerCase(), body);
    m = /^\/arquivos\/([A-Za-z0-9-]+\.pdf)$/.exec(rest);
    if (m && method === 'GET') {
      const file = files.get(m[1]!);
      return file ? { status: 200, raw: file, headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${m[1]}"` } } : erpError(404, 'Arquivo não encontrado');
    }
    return erpError(404, 'Rota desconhecida');
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://erp.local');
    const entry: ErpRequestLog = { method: req.method ?? 'GET', path: url.pathname, body: null, aborted: false };
    requests.push(entry);
    if (requests.length > 500) requests.shift();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1_000_000) req.destroy();
      else chunks.push(c);
    });
    res.on('close', () => {
      if (!res.writableFinished) entry.aborted = true;
    });
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      if (raw) {
        try {
          body = JSON.parse(raw);
        } catch {
          return send(res, erpError(400, 'JSON inválido'));
        }
      } else if (url.searchParams.size) {
        body = Object.fromEntries(url.searchParams);
      }
      entry.body = body;
      if (delayNextMs) {
        const ms = delayNextMs;
        delayNextMs = 0;
        await new Promise((r) => setTimeout(r, ms));
        if (res.destroyed) return;
      }
      if (redirectNext) {
        const location = redirectNext;
        redirectNext = null;
        res.writeHead(302, { location });
        return res.end();
      }
      const fail = scripted.shift();
      if (fail) return send(res, json(fail.status, fail.body));
      try {
        send(res, await handle(entry.method, url.pathname, body));
      } catch (error) {
        send(res, erpError(500, `Erro interno do ERP: ${(error as Error).message}`));
      }
    });
  });

  function send(res: http.ServerResponse, out: Handled): void {
    if (res.destroyed) return;
    const headers: Record<string, string> = { 'x-erp-name': options.name ?? 'erp-local', ...out.headers };
    if (out.raw) {
      res.writeHead(out.status, { ...headers, 'content-length': String(out.raw.length) });
      res.end(out.raw);
      return;
    }
    const text = JSON.stringify(out.body ?? null);
    res.writeHead(out.status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host}:${address.port}`;

  return {
    /** Origin of the server, e.g. http://127.0.0.1:5010. */
    origin: baseUrl,
    /** What a tenant configures as its ERP base URL: origin + basePath. */
    url: `${baseUrl}${basePath}`,
    port: address.port,
    tables,
    requests,
    /** Records written through /registros, by table. */
    records,
    /** The next request answers this status and body (fault injection). */
    failNext(status: number, body: unknown = { status: 'erro', message: 'Falha simulada no ERP' }): void {
      scripted.push({ kind: 'fail', status, body });
    },
    /** The next request waits this long before answering (timeouts, cancellation). */
    delayNext(ms: number): void {
      delayNextMs = ms;
    },
    /** The next request answers 302 to this location (redirect checks). */
    redirectNextTo(location: string): void {
      redirectNext = location;
    },
    close(): Promise<void> {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

export type LocalErp = Awaited<ReturnType<typeof startLocalErp>>;
