import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CHANNEL_TABLE } from '@atendimento/schemas';

/**
 * The server's layers point one way (docs/database.md, docs/channels.md): web → services → db,
 * the hub and the services meeting on a neutral contract (services/changes/live-collection.ts).
 * Each rule below is checked on the real tree and, so it can fail, on an inline bad sample.
 *
 * 1. Only server/src/db/ talks to the database: no `knex` or `pg` import elsewhere, and no call
 *    or property access on a Knex value (a query built on a passed-in `db` or `trx`). Services
 *    may hold a transaction handle (`Transaction` from db/knex.ts) to hand it back to a
 *    repository; that is all.
 * 2. services/ never imports web/ nor hub/.
 * 3. No list of two or more channel-type names outside the channel table
 *    (schemas/src/chat/channel.ts) and the frozen migrations: every such list derives from
 *    the table (channelTypes, channelIs, adapterOf, isWebchat).
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const rel = (full: string) => path.relative(repoRoot, full).split(path.sep).join('/');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(name) && !/\.d\.ts$/.test(name)) out.push(full);
  }
  return out;
}

interface Finding {
  where: string;
  text: string;
}

function finding(sf: ts.SourceFile, node: ts.Node, why: string): Finding {
  const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  return { where: `${sf.fileName}:${line + 1}`, text: `${why}: ${node.getText(sf).replace(/\s+/g, ' ').slice(0, 140)}` };
}

const show = (found: Finding[]) => found.map((f) => `${f.where} ${f.text}`).join('\n');

// ---------------------------------------------------------------------------------------------
// Imports

/** Module specifiers a file imports or re-exports (static, dynamic and require). */
function importsOf(sf: ts.SourceFile): { spec: string; node: ts.Node }[] {
  const out: { spec: string; node: ts.Node }[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ spec: node.moduleSpecifier.text, node });
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) out.push({ spec: node.arguments[0]!.text, node });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Where an import lands, as a repo-relative path ('server/src/web/access'), or the package name. */
function target(fromFile: string, spec: string): string {
  if (spec.startsWith('.')) return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  if (spec.startsWith('@atendimento/server/')) return `server/src/${spec.slice('@atendimento/server/'.length)}`;
  return spec;
}

const DRIVERS = new Set(['knex', 'pg']);

/** Rule 1 (imports) and rule 2: what a server file may not import, given where it lives. */
export function findLayerImports(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const findings: Finding[] = [];
  const inDb = file.startsWith('server/src/db/');
  const inServices = file.startsWith('server/src/services/');
  for (const { spec, node } of importsOf(sf)) {
    const to = target(file, spec);
    const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
    if (!inDb && DRIVERS.has(pkg)) findings.push(finding(sf, node, `imports the database driver '${pkg}' outside server/src/db`));
    if (inServices && (to === 'server/src/web' || to.startsWith('server/src/web/'))) findings.push(finding(sf, node, 'services import web/'));
    if (inServices && (to === 'server/src/hub' || to.startsWith('server/src/hub/'))) findings.push(finding(sf, node, 'services import hub/'));
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------
// Queries built outside db/ (needs types: `db` and `trx` are ordinary names)

const compilerOptions = (() => {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(repoRoot, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) throw new Error('layering lint: cannot read tsconfig.json');
  return { options: parsed.options, fileNames: parsed.fileNames };
})();

function isKnexType(checker: ts.TypeChecker, node: ts.Expression): boolean {
  const type = checker.getTypeAtLocation(node);
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  return (symbol?.getDeclarations() ?? []).some((d) => /[\\/]node_modules[\\/]knex[\\/]/.test(d.getSourceFile().fileName));
}

/**
 * Calls and property accesses on a Knex value (`db('rooms')`, `trx.raw(...)`, `db.transaction`)
 * in the given files. `extra` adds in-memory files (the bad sample), keyed by absolute path.
 */
export function findQueriesOutsideDb(files: string[], extra: Record<string, string> = {}): Finding[] {
  const host = ts.createCompilerHost(compilerOptions.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError, create) =>
    name in extra ? ts.createSourceFile(name, extra[name]!, version, true, ts.ScriptKind.TS) : getSourceFile(name, version, onError, create);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name in extra || fileExists(name);
  const program = ts.createProgram([...files, ...Object.keys(extra)], compilerOptions.options, host);
  const checker = program.getTypeChecker();
  const wanted = new Set([...files, ...Object.keys(extra)].map((f) => path.resolve(f)));
  const findings: Finding[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!wanted.has(path.resolve(sf.fileName))) continue;
    const seen = new Set<number>();
    const visit = (node: ts.Node) => {
      const on = ts.isCallExpression(node) || ts.isPropertyAccessExpression(node) ? node.expression : null;
      if (on && isKnexType(checker, on)) {
        const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
        if (!seen.has(line)) {
          seen.add(line);
          findings.push({ ...finding(sf, node, 'builds a query outside server/src/db'), where: `${rel(sf.fileName)}:${line + 1}` });
        }
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------
// Channel-type lists

const CHANNEL_TYPES = new Set(Object.keys(CHANNEL_TABLE));

/**
 * Lists of two or more distinct channel-type names: array elements or call arguments
 * (`['meta', 'dialog360']`, `f('zApi', 'wa')`), case labels of one switch, comparisons chained
 * with || or && (`t === 'webchat' || t === 'widget'`), and keys of one object whose values are
 * not objects (`{ meta: 'meta', dialog360: 'dialog360' }`; a section of messages is not a list).
 */
export function findChannelTypeLists(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const findings: Finding[] = [];
  const name = (node: ts.Node | undefined): string | null =>
    node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && CHANNEL_TYPES.has(node.text) ? node.text : null;
  const distinct = (names: (string | null)[]) => new Set(names.filter((n): n is string => n !== null)).size;
  const visit = (node: ts.Node) => {
    if (ts.isArrayLiteralExpression(node) && distinct(node.elements.map(name)) >= 2) findings.push(finding(sf, node, 'lists channel types'));
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && distinct((node.arguments ?? []).map(name)) >= 2) findings.push(finding(sf, node, 'lists channel types'));
    if (ts.isSwitchStatement(node) && distinct(node.caseBlock.clauses.map((c) => (ts.isCaseClause(c) ? name(c.expression) : null))) >= 2) {
      findings.push(finding(sf, node.expression, 'switches over channel types'));
    }
    if (ts.isObjectLiteralExpression(node)) {
      const keys = node.properties.map((p) =>
        ts.isPropertyAssignment(p) && !ts.isObjectLiteralExpression(p.initializer) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && CHANNEL_TYPES.has(p.name.text) ? p.name.text : null,
      );
      if (distinct(keys) >= 2) findings.push(finding(sf, node, 'keys an object by channel types'));
    }
    const logical = (n: ts.Node): n is ts.BinaryExpression =>
      ts.isBinaryExpression(n) && (n.operatorToken.kind === ts.SyntaxKind.BarBarToken || n.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken);
    if (logical(node) && !(logical(node.parent) && node.parent.operatorToken.kind === node.operatorToken.kind)) {
      const names: (string | null)[] = [];
      const walk = (e: ts.Expression) => {
        while (ts.isParenthesizedExpression(e)) e = e.expression;
        if (logical(e) && e.operatorToken.kind === node.operatorToken.kind) {
          walk(e.left);
          walk(e.right);
        } else if (ts.isBinaryExpression(e) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(e.operatorToken.kind)) {
          names.push(name(e.left), name(e.right));
        }
      };
      walk(node);
      if (distinct(names) >= 2) findings.push(finding(sf, node, 'compares with channel types'));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}

/** The one place channel types are listed, and history that cannot change. */
const CHANNEL_LIST_HOMES = [/^schemas\/src\/chat\/channel\.ts$/, /^server\/src\/db\/migrations\//];
/**
 * Stories, specs and fixtures hold sample records (a contact reachable on two channels is data,
 * not knowledge about channels); the rule is for what the product decides by channel type.
 */
const isSampleData = (file: string) => /\.(stories|spec)\.tsx?$|\/fixtures\//.test(file);
const CHANNEL_LIST_SCAN = ['server/src', 'console/src', 'engine/src', 'integrations/src', 'schemas/src'];

// ---------------------------------------------------------------------------------------------

const serverFiles = sourceFiles(path.join(repoRoot, 'server/src')).map(rel);

describe('server layers (layering lint)', () => {
  it('no database driver import outside server/src/db, no services → web or hub import', () => {
    expect(serverFiles.length).toBeGreaterThan(50);
    const found = serverFiles.flatMap((file) => findLayerImports(file, readFileSync(path.join(repoRoot, file), 'utf8')));
    expect(found, show(found)).toEqual([]);
  });

  it('the import rules catch a driver outside db/, services → web and services → hub', () => {
    const bad = [
      "import knex from 'knex';",
      "import type { Knex } from 'knex';",
      "import pg from 'pg';",
      "import { access } from '../../web/access';",
      "import type { LiveCollection } from '../../hub/live-collection';",
      "export { createHub } from '@atendimento/server/hub/hub';",
      "import { parseJson } from '../../db/knex';",
      "import { AppError } from '../../errors';",
    ].join('\n');
    expect(findLayerImports('server/src/services/x/y.ts', bad).map((f) => f.where)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `server/src/services/x/y.ts:${n}`));
    // The same driver import is fine inside db/; web/ may import services.
    expect(findLayerImports('server/src/db/x.ts', "import knex from 'knex';")).toEqual([]);
    expect(findLayerImports('server/src/web/x.ts', "import type { Chat } from '../services/chat';")).toEqual([]);
  });

  it('no query is built on a Knex value outside server/src/db (test setup in *.spec.ts aside)', () => {
    const files = serverFiles.filter((f) => !f.startsWith('server/src/db/') && !f.endsWith('.spec.ts')).map((f) => path.join(repoRoot, f));
    const found = findQueriesOutsideDb(files);
    expect(found, show(found)).toEqual([]);
  }, 120_000);

  it('the query rule catches db(...), trx.raw and db.transaction under any name, and lets a handle pass through', () => {
    const file = path.join(repoRoot, 'server/src/services/__lint_sample__.ts');
    const sample = [
      "import type { Db, Transaction } from './../db/knex';",
      'export async function bad(db: Db, trx: Transaction, handle: (t: Transaction) => Promise<void>) {',
      "  const k = db;",
      "  await k('rooms').where({ tenant_id: 'a' });",
      "  await trx.raw('select 1');",
      '  await db.transaction(async (t) => handle(t));',
      '  await handle(trx);',
      '}',
    ].join('\n');
    const found = findQueriesOutsideDb([], { [file]: sample });
    expect(found.map((f) => f.where)).toEqual([4, 5, 6].map((n) => `server/src/services/__lint_sample__.ts:${n}`));
  }, 120_000);

  it('no list of channel types outside the channel table (server, console, engine, integrations, schemas)', () => {
    const files = CHANNEL_LIST_SCAN.flatMap((dir) => sourceFiles(path.join(repoRoot, dir))).map(rel);
    expect(files.some((f) => f.startsWith('console/src/'))).toBe(true);
    expect(files.some((f) => f.startsWith('engine/src/'))).toBe(true);
    const found = files
      .filter((f) => !CHANNEL_LIST_HOMES.some((home) => home.test(f)) && !isSampleData(f))
      .flatMap((f) => findChannelTypeLists(f, readFileSync(path.join(repoRoot, f), 'utf8')));
    expect(found, show(found)).toEqual([]);
  });

  it('the channel-list rule catches arrays, arguments, switches, chained comparisons and keyed maps', () => {
    const bad = [
      "const a = ['meta', 'dialog360'];",
      "f('zApi', 'wa');",
      "switch (t) { case 'webchat': case 'widget': break; }",
      "const w = t === 'webchat' || t === 'widget';",
      "const k = { meta: 'meta', dialog360: 'dialog360' };",
      "const s = new Set(['wa', 'whatsapp', 'meta']);",
    ].join('\n');
    expect(findChannelTypeLists('x.ts', bad).map((f) => f.where)).toEqual(['x.ts:1', 'x.ts:2', 'x.ts:3', 'x.ts:4', 'x.ts:5', 'x.ts:6']);
    const fine = [
      "const one = t === 'mail';",
      "const same = room.channel === 'mail' || room.origin === 'mail';",
      "const sections = { whatsapp: { a: 'x' }, webchat: { b: 'y' } };",
      "const other = ['image', 'video'];",
    ].join('\n');
    expect(findChannelTypeLists('x.ts', fine)).toEqual([]);
  });
});
