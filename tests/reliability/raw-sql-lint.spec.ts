import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * R7's lint rule: no raw SQL built from strings at run time. Every knex raw call in server/src
 * (`raw`, `whereRaw`, `orderByRaw`, …) whose SQL is a template with `${…}` or a `+`
 * concatenation fails, unless each interpolated expression is listed below with the reason it
 * cannot carry caller input. Values always go in bindings (`?`, `??`). Where SQL may live at
 * all (server/src/db/ only) is layering-lint.spec.ts's rule.
 */
const ALLOWED: Record<string, Record<string, string>> = {
  'server/src/db/repositories/register-sql.ts': {
    'e.sql': 'column SQL from the register field whitelist (FieldSpec), never from the request',
    'f.op': 'comparison operator checked against FILTER_OPS before it gets here',
    dir: "'asc' | 'desc' from the parsed OrderBy",
    "dir === 'asc' ? 'nulls first' : 'nulls last'": 'a constant',
  },
};

const RAW_METHODS = new Set(['raw', 'whereRaw', 'orWhereRaw', 'andWhereRaw', 'havingRaw', 'orHavingRaw', 'orderByRaw', 'groupByRaw', 'joinRaw', 'fromRaw', 'selectRaw', 'onRaw', 'jsonExtractRaw']);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.ts$/.test(name) && !/\.d\.ts$/.test(name)) out.push(full);
  }
  return out;
}

interface Finding {
  where: string;
  text: string;
}

/** Raw calls whose first argument interpolates or concatenates something not allowed. */
export function findUnsafeRaw(file: string, source: string, allowed: Record<string, string> = {}): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const findings: Finding[] = [];
  const report = (node: ts.Node, why: string) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    findings.push({ where: `${file}:${line + 1}`, text: `${why}: ${node.getText(sf).slice(0, 160)}` });
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && RAW_METHODS.has(node.expression.name.text) && node.arguments.length > 0) {
      const sql = node.arguments[0]!;
      if (ts.isTemplateExpression(sql)) {
        for (const span of sql.templateSpans) {
          const expr = span.expression.getText(sf);
          if (!(expr in allowed)) report(node, `interpolates \${${expr}}`);
        }
      } else if (ts.isBinaryExpression(sql) && sql.operatorToken.kind === ts.SyntaxKind.PlusToken) {
        report(node, 'concatenates SQL');
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}

describe('no raw SQL built from input (R7 lint)', () => {
  it('server/src has no raw call interpolating anything outside the allow-list', () => {
    const files = sourceFiles(path.join(repoRoot, 'server/src'));
    expect(files.length).toBeGreaterThan(20);
    const findings = files.flatMap((full) => {
      const rel = path.relative(repoRoot, full).split(path.sep).join('/');
      return findUnsafeRaw(rel, readFileSync(full, 'utf8'), ALLOWED[rel]);
    });
    expect(findings, findings.map((f) => `${f.where} ${f.text}`).join('\n')).toEqual([]);
  });

  it('the rule catches interpolation and concatenation, and accepts bindings', () => {
    const code = [
      'db.raw(`select * from users where email = \'${email}\'`);',
      "qb.whereRaw('name = ' + name);",
      'qb.orderByRaw(`${column} desc`);',
      "db.raw('select * from users where email = ?', [email]);",
      'db.raw(`select 1`);',
      "qb.whereRaw('?? = ?', [column, value]);",
    ].join('\n');
    const found = findUnsafeRaw('x.ts', code);
    expect(found.map((f) => f.where)).toEqual(['x.ts:1', 'x.ts:2', 'x.ts:3']);
    // An allow-listed expression passes only where it is listed.
    expect(findUnsafeRaw('x.ts', 'qb.orderByRaw(`${dir}`);', { dir: 'constant' })).toEqual([]);
  });
});
