/**
 * The small SQL subset the local ERP understands in the proxy protocol's filter (`:FILTRO`,
 * `FILTRO`), order (`:ORDEM`, `ORDEM`) and direct query (`QUERY`) texts — enough for what the
 * product sends to a Protheus-style ERP (docs/erp.md):
 *
 *   QUERY  := SELECT cols FROM table [WHERE cond]
 *   cond   := term {OR term};  term := factor {AND factor};  factor := [NOT] ( cond ) | predicate
 *   predicate := operand (= | <> | != | < | <= | > | >=) operand
 *              | operand [NOT] LIKE 'pat' | operand [NOT] IN (v, ...) | operand IS [NOT] NULL
 *   operand := COLUMN | 'text' | number | UPPER(operand) | LOWER(operand) | TRIM(operand) | ROWNUM
 *   ORDEM  := COLUMN [ASC|DESC] {, COLUMN [ASC|DESC]}
 *
 * ROWNUM behaves as in Oracle: rows are numbered as they pass the rest of the predicate, before
 * ordering, so `... AND ROWNUM <= 20` keeps the first 20 matches (the proxy's row limit).
 * Anything else is a syntax error with the position, never evaluated loosely.
 */

export class ErpSqlError extends Error {
  constructor(message: string, readonly position: number) {
    super(`${message} (posição ${position + 1})`);
  }
}

type Token =
  | { kind: 'ident'; value: string; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'number'; value: number; pos: number }
  | { kind: 'op'; value: string; pos: number }
  | { kind: 'end'; pos: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      let value = '';
      const start = i++;
      for (;;) {
        if (i >= text.length) throw new ErpSqlError('texto sem aspa de fechamento', start);
        if (text[i] === "'") {
          if (text[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i++];
      }
      tokens.push({ kind: 'string', value, pos: start });
    } else if (/[0-9]/.test(c) || (c === '-' && /[0-9]/.test(text[i + 1] ?? '') && !isOperand(tokens[tokens.length - 1]))) {
      const match = /^-?\d+(\.\d+)?/.exec(text.slice(i))!;
      tokens.push({ kind: 'number', value: Number(match[0]), pos: i });
      i += match[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const match = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(text.slice(i))!;
      tokens.push({ kind: 'ident', value: match[0].toUpperCase(), pos: i });
      i += match[0].length;
    } else {
      const two = text.slice(i, i + 2);
      if (['<=', '>=', '<>', '!='].includes(two)) {
        tokens.push({ kind: 'op', value: two, pos: i });
        i += 2;
      } else if ('=<>(),*'.includes(c)) {
        tokens.push({ kind: 'op', value: c, pos: i });
        i++;
      } else {
        throw new ErpSqlError(`caractere inesperado "${c}"`, i);
      }
    }
  }
  tokens.push({ kind: 'end', pos: text.length });
  return tokens;
}

function isOperand(token: Token | undefined): boolean {
  return !!token && (token.kind === 'ident' || token.kind === 'string' || token.kind === 'number' || (token.kind === 'op' && token.value === ')'));
}

type Operand =
  | { kind: 'column'; name: string }
  | { kind: 'rownum' }
  | { kind: 'literal'; value: string | number }
  | { kind: 'fn'; name: 'UPPER' | 'LOWER' | 'TRIM'; arg: Operand };

export type Condition =
  | { kind: 'and' | 'or'; left: Condition; right: Condition }
  | { kind: 'not'; inner: Condition }
  | { kind: 'compare'; op: '=' | '<>' | '<' | '<=' | '>' | '>='; left: Operand; right: Operand }
  | { kind: 'like'; negate: boolean; left: Operand; pattern: Operand }
  | { kind: 'in'; negate: boolean; left: Operand; values: Operand[] }
  | { kind: 'null'; negate: boolean; left: Operand };

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'LIKE', 'IN', 'IS', 'NULL', 'SELECT', 'FROM', 'WHERE', 'ASC', 'DESC', 'ORDER', 'BY']);

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(): Token {
    return this.tokens[this.i]!;
  }
  next(): Token {
    return this.tokens[this.i++]!;
  }
  isWord(word: string): boolean {
    const t = this.peek();
    return t.kind === 'ident' && t.value === word;
  }
  isOp(op: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.value === op;
  }
  expectWord(word: string): void {
    if (!this.isWord(word)) throw new ErpSqlError(`esperava ${word}`, this.peek().pos);
    this.i++;
  }
  expectOp(op: string): void {
    if (!this.isOp(op)) throw new ErpSqlError(`esperava "${op}"`, this.peek().pos);
    this.i++;
  }
  expectEnd(): void {
    if (this.peek().kind !== 'end') throw new ErpSqlError('texto sobrando', this.peek().pos);
  }

  condition(): Condition {
    let left = this.term();
    while (this.isWord('OR')) {
      this.i++;
      left = { kind: 'or', left, right: this.term() };
    }
    return left;
  }

  term(): Condition {
    let left = this.factor();
    while (this.isWord('AND')) {
      this.i++;
      left = { kind: 'and', left, right: this.factor() };
    }
    return left;
  }

  factor(): Condition {
    if (this.isWord('NOT')) {
      this.i++;
      return { kind: 'not', inner: this.factor() };
    }
    if (this.isOp('(')) {
      // A parenthesis opens either a nested condition or (rarely) an operand; conditions win.
      this.i++;
      const inner = this.condition();
      this.expectOp(')');
      return inner;
    }
    return this.predicate();
  }

  predicate(): Condition {
    const left = this.operand();
    const t = this.peek();
    if (t.kind === 'op' && ['=', '<>', '!=', '<', '<=', '>', '>='].includes(t.value)) {
      this.i++;
      const op = (t.value === '!=' ? '<>' : t.value) as Extract<Condition, { kind: 'compare' }>['op'];
      return { kind: 'compare', op, left, right: this.operand() };
    }
    let negate = false;
    if (this.isWord('NOT')) {
      this.i++;
      negate = true;
    }
    if (this.isWord('LIKE')) {
      this.i++;
      return { kind: 'like', negate, left, pattern: this.operand() };
    }
    if (this.isWord('IN')) {
      this.i++;
      this.expectOp('(');
      const values = [this.operand()];
      while (this.isOp(',')) {
        this.i++;
        values.push(this.operand());
      }
      this.expectOp(')');
      return { kind: 'in', negate, left, values };
    }
    if (!negate && this.isWord('IS')) {
      this.i++;
      let isNot = false;
      if (this.isWord('NOT')) {
        this.i++;
        isNot = true;
      }
      this.expectWord('NULL');
      return { kind: 'null', negate: isNot, left };
    }
    throw new ErpSqlError('esperava um operador (=, <>, LIKE, IN, IS NULL...)', this.peek().pos);
  }

  operand(): Operand {
    const t = this.next();
    if (t.kind === 'string' || t.kind === 'number') return { kind: 'literal', value: t.value };
    if (t.kind === 'ident' && !KEYWORDS.has(t.value)) {
      if (t.value === 'ROWNUM') return { kind: 'rownum' };
      if ((t.value === 'UPPER' || t.value === 'LOWER' || t.value === 'TRIM') && this.isOp('(')) {
        this.i++;
        const arg = this.operand();
        this.expectOp(')');
        return { kind: 'fn', name: t.value, arg };
      }
      return { kind: 'column', name: t.value.includes('.') ? t.value.slice(t.value.lastIndexOf('.') + 1) : t.value };
    }
    throw new ErpSqlError('esperava uma coluna ou um valor', t.pos);
  }
}

/** Parses a filter text (`:FILTRO` / `FILTRO`); an empty text means "every row". */
export function parseFilter(text: string | null | undefined): Condition | null {
  if (!text || !text.trim()) return null;
  const parser = new Parser(tokenize(text));
  const condition = parser.condition();
  parser.expectEnd();
  return condition;
}

interface OrderTerm {
  column: string;
  descending: boolean;
}

/** Parses an order text (`:ORDEM` / `ORDEM`), with or without a leading ORDER BY. */
export function parseOrder(text: string | null | undefined): OrderTerm[] {
  if (!text || !text.trim()) return [];
  const parser = new Parser(tokenize(text));
  if (parser.isWord('ORDER')) {
    parser.next();
    parser.expectWord('BY');
  }
  const terms: OrderTerm[] = [];
  for (;;) {
    const t = parser.next();
    if (t.kind !== 'ident' || KEYWORDS.has(t.value)) throw new ErpSqlError('esperava uma coluna na ordem', t.pos);
    let descending = false;
    if (parser.isWord('ASC') || parser.isWord('DESC')) descending = (parser.next() as { value: string }).value === 'DESC';
    terms.push({ column: t.value.includes('.') ? t.value.slice(t.value.lastIndexOf('.') + 1) : t.value, descending });
    if (!parser.isOp(',')) break;
    parser.next();
  }
  parser.expectEnd();
  return terms;
}

interface SelectQuery {
  /** Upper-case column names, or null for `*`. */
  columns: string[] | null;
  table: string;
  where: Condition | null;
  order: OrderTerm[];
}

/** Parses `SELECT cols FROM table [WHERE cond] [ORDER BY ...]` (the direct form's QUERY). */
export function parseSelect(text: string): SelectQuery {
  const parser = new Parser(tokenize(text));
  parser.expectWord('SELECT');
  let columns: string[] | null = [];
  if (parser.isOp('*')) {
    parser.next();
    columns = null;
  } else {
    for (;;) {
      const t = parser.next();
      if (t.kind !== 'ident' || KEYWORDS.has(t.value)) throw new ErpSqlError('esperava uma coluna', t.pos);
      columns.push(t.value.includes('.') ? t.value.slice(t.value.lastIndexOf('.') + 1) : t.value);
      if (!parser.isOp(',')) break;
      parser.next();
    }
  }
  parser.expectWord('FROM');
  const table = parser.next();
  if (table.kind !== 'ident' || KEYWORDS.has(table.value)) throw new ErpSqlError('esperava o nome da tabela', table.pos);
  let where: Condition | null = null;
  if (parser.isWord('WHERE')) {
    parser.next();
    where = parser.condition();
  }
  let order: OrderTerm[] = [];
  if (parser.isWord('ORDER')) {
    const rest = text.slice(parser.peek().pos);
    order = parseOrder(rest);
    return { columns, table: table.value, where, order };
  }
  parser.expectEnd();
  return { columns, table: table.value, where, order };
}

type Row = Record<string, unknown>;

function value(operand: Operand, row: Row, rownum: number): unknown {
  switch (operand.kind) {
    case 'literal':
      return operand.value;
    case 'rownum':
      return rownum;
    case 'column':
      if (!(operand.name in row)) throw new ErpSqlError(`coluna desconhecida ${operand.name}`, 0);
      return row[operand.name];
    case 'fn': {
      const inner = value(operand.arg, row, rownum);
      if (inner === null || inner === undefined) return inner;
      const text = String(inner);
      return operand.name === 'UPPER' ? text.toUpperCase() : operand.name === 'LOWER' ? text.toLowerCase() : text.trim();
    }
  }
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const na = Number(a);
  const nb = Number(b);
  if ((typeof a === 'number' || typeof b === 'number') && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return String(a).localeCompare(String(b), 'pt-BR');
}

function likeToRegExp(pattern: string): RegExp {
  let source = '';
  for (const ch of pattern) source += ch === '%' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${source}$`, 's');
}

/** Evaluates a parsed condition on one row; `rownum` is the number the row would get. */
export function matches(condition: Condition | null, row: Row, rownum: number): boolean {
  if (!condition) return true;
  switch (condition.kind) {
    case 'and':
      return matches(condition.left, row, rownum) && matches(condition.right, row, rownum);
    case 'or':
      return matches(condition.left, row, rownum) || matches(condition.right, row, rownum);
    case 'not':
      return !matches(condition.inner, row, rownum);
    case 'compare': {
      const a = value(condition.left, row, rownum);
      const b = value(condition.right, row, rownum);
      if (a === null || a === undefined || b === null || b === undefined) return false;
      const c = compare(a, b);
      switch (condition.op) {
        case '=': return c === 0;
        case '<>': return c !== 0;
        case '<': return c < 0;
        case '<=': return c <= 0;
        case '>': return c > 0;
        case '>=': return c >= 0;
      }
      return false;
    }
    case 'like': {
      const a = value(condition.left, row, rownum);
      const p = value(condition.pattern, row, rownum);
      if (a === null || a === undefined || p === null || p === undefined) return false;
      return likeToRegExp(String(p)).test(String(a)) !== condition.negate;
    }
    case 'in': {
      const a = value(condition.left, row, rownum);
      if (a === null || a === undefined) return false;
      const found = condition.values.some((v) => compare(a, value(v, row, rownum)) === 0);
      return found !== condition.negate;
    }
    case 'null': {
      const a = value(condition.left, row, rownum);
      const isNull = a === null || a === undefined || a === '';
      return isNull !== condition.negate;
    }
  }
}

/**
 * Filters rows in table order with Oracle's ROWNUM semantics: a row gets the next number only
 * when it passes, so `ROWNUM <= n` stops at n matches.
 */
export function filterRows<T extends Row>(rows: readonly T[], condition: Condition | null): T[] {
  const out: T[] = [];
  for (const row of rows) if (matches(condition, row, out.length + 1)) out.push(row);
  return out;
}

/** Sorts a copy of the rows by the order terms (pt-BR collation for text). */
export function sortRows<T extends Row>(rows: readonly T[], order: OrderTerm[]): T[] {
  if (order.length === 0) return [...rows];
  for (const term of order) {
    if (rows.length && !(term.column in rows[0]!)) throw new ErpSqlError(`coluna desconhecida ${term.column} na ordem`, 0);
  }
  return [...rows].sort((a, b) => {
    for (const term of order) {
      const c = compare(a[term.column] ?? '', b[term.column] ?? '');
      if (c !== 0) return term.descending ? -c : c;
    }
    return 0;
  });
}
