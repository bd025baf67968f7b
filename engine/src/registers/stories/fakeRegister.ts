import type { FakeCall, FakeRoutes } from '../../stories/fakeApi';

type Row = Record<string, unknown> & { id: string };

const resets = new Set<() => void>();

/** Puts every fake register back to its story rows (each story starts from the same data). */
export function resetFakeRegisters(): void {
  for (const reset of resets) reset();
}

/**
 * Stories and specs only: one register's simple-rest API over an in-memory list (the browser
 * tests drive the real server). `validate` answers the server's 400 fields for a body.
 */
export function fakeRegister(name: string, rows: Row[], validate: (body: Record<string, unknown>) => { field: string; message: string }[] = () => []): FakeRoutes {
  let data = rows.map((row) => ({ ...row }));
  let next = data.length + 1;
  resets.add(() => {
    data = rows.map((row) => ({ ...row }));
    next = data.length + 1;
  });
  const query = (call: FakeCall) => new URLSearchParams(call.path.split('?')[1] ?? '');
  const idOf = (call: FakeCall) => decodeURIComponent(call.path.split('?')[0]!.split('/')[3] ?? '');
  const invalid = (body: Record<string, unknown>) => {
    const fields = validate(body);
    return fields.length ? { status: 400, body: { error: 'validation_failed', errorMessage: fields.map((f) => f.message).join('; '), fields } } : null;
  };
  return {
    [`GET /api/${name}`]: (call) => {
      const params = query(call);
      const filter = JSON.parse(params.get('filter') ?? '{}') as { q?: string };
      const [from, to] = JSON.parse(params.get('range') ?? '[0,9]') as [number, number];
      const [field, order] = JSON.parse(params.get('sort') ?? '["id","ASC"]') as [string, string];
      let list = data.filter((row) => !filter.q || Object.values(row).some((v) => typeof v === 'string' && v.toLowerCase().includes(filter.q!.toLowerCase())));
      list = [...list].sort((a, b) => String(a[field] ?? '').localeCompare(String(b[field] ?? '')) * (order === 'DESC' ? -1 : 1));
      const page = list.slice(from, to + 1);
      return { body: page, headers: { 'Content-Range': `${name} ${from}-${from + page.length - 1}/${list.length}` } };
    },
    [`POST /api/${name}`]: (call) => {
      const body = call.body as Record<string, unknown>;
      const bad = invalid(body);
      if (bad) return bad;
      const row = { ...body, id: `${name}-${next++}` };
      data.push(row);
      return { status: 201, body: row };
    },
    [`PATCH /api/${name}/remove`]: (call) => {
      const ids = call.body as string[];
      data = data.filter((row) => !ids.includes(row.id));
      return { body: { data: ids } };
    },
    [`GET /api/${name}/*`]: (call) => {
      const row = data.find((r) => r.id === idOf(call));
      return row ? { body: row } : { status: 404, body: { error: 'not_found', errorMessage: 'Registro não encontrado.' } };
    },
    [`PUT /api/${name}/*`]: (call) => {
      const body = call.body as Record<string, unknown>;
      const bad = invalid(body);
      if (bad) return bad;
      const index = data.findIndex((r) => r.id === idOf(call));
      data[index] = { ...data[index]!, ...body, id: idOf(call) };
      return { body: data[index] };
    },
    // PATCH merges (the rules dialog sends only queueMessages).
    [`PATCH /api/${name}/*`]: (call) => {
      const index = data.findIndex((r) => r.id === idOf(call));
      if (index < 0) return { status: 404, body: { error: 'not_found', errorMessage: 'Registro não encontrado.' } };
      data[index] = { ...data[index]!, ...(call.body as Record<string, unknown>), id: idOf(call) };
      return { body: data[index] };
    },
    [`DELETE /api/${name}/*`]: (call) => {
      const row = data.find((r) => r.id === idOf(call));
      data = data.filter((r) => r.id !== idOf(call));
      return { body: row };
    },
  };
}
