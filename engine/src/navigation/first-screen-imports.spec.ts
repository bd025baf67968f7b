import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What the signed-in first screen ('/') imports statically: the entry (main.tsx) and the
 * signed-in app's chunk (SignedInApp.tsx, loaded while the password is checked), followed
 * through every static import, not through `import()`. B10b (npm run bench) weighs the result
 * in a real build; this spec names the module that broke it, in `npm test`: react-router and
 * react-admin load with the register screens (docs/engine.md "Navigation"), MUI's overlays on
 * first use (docs/console.md "Loading").
 */
const ROOT = path.resolve(__dirname, '../../..');
const PACKAGES: Record<string, { dir: string; exports: Record<string, string> }> = Object.fromEntries(
  ['console', 'schemas'].map((name) => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, name, 'package.json'), 'utf8')) as { exports: Record<string, string> };
    return [`@atendimento/${name}`, { dir: path.join(ROOT, name), exports: pkg.exports }];
  }),
);

function resolveFile(base: string): string | null {
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(candidate) && /\.tsx?$/.test(candidate)) return candidate;
  }
  return null;
}

/** A workspace specifier through its package's `exports` (exact entries first, then "./*"). */
function resolveWorkspace(specifier: string): string | null {
  const name = Object.keys(PACKAGES).find((pkg) => specifier === pkg || specifier.startsWith(`${pkg}/`));
  if (!name) return null;
  const { dir, exports } = PACKAGES[name]!;
  const sub = `.${specifier.slice(name.length)}` || '.';
  const target = exports[sub === '.' ? '.' : sub] ?? exports['./*']?.replace('*', sub.slice(2));
  return target ? resolveFile(path.join(dir, target.replace(/\.tsx?$/, ''))) : null;
}

const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;

/** Every bare module the first screen imports, as `pkg/Sub` for named imports of '@mui/material'. */
function firstScreenImports(entries: string[]): Map<string, string> {
  const seen = new Set<string>();
  const bare = new Map<string, string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(STATIC_IMPORT)) {
      const clause = match[1] ?? '';
      const specifier = (match[2] ?? match[3])!;
      const local = specifier.startsWith('.') ? resolveFile(path.resolve(path.dirname(file), specifier)) : resolveWorkspace(specifier);
      if (local) queue.push(local);
      else if (specifier.startsWith('.')) continue; // JSON and assets
      else if (specifier === '@mui/material') {
        const names = /\{([^}]*)\}/.exec(clause)?.[1]?.split(',') ?? [];
        for (const name of names.map((n) => n.trim().split(/\s+as\s+/)[0]!.trim()).filter((n) => n && !n.startsWith('type '))) bare.set(`@mui/material/${name}`, path.relative(ROOT, file));
      } else bare.set(specifier, path.relative(ROOT, file));
    }
  }
  return bare;
}

describe("the signed-in first screen's static imports (B10b)", () => {
  const imports = firstScreenImports([path.join(ROOT, 'engine/src/main.tsx'), path.join(ROOT, 'engine/src/SignedInApp.tsx')]);

  it('follows the graph into the console and schemas (the walk itself works)', () => {
    expect(imports.get('react-dom/client')).toBe('engine/src/main.tsx');
    expect(imports.has('react-window')).toBe(true);
    expect(imports.has('@mui/material/Chip')).toBe(true);
  });

  it('holds no router, no react-admin, no form library and none of MUI’s overlays', () => {
    const banned = [...imports.keys()].filter((specifier) =>
      /^(react-router(-dom)?|react-admin|ra-[\w-]+|@rjsf\/.*|ajv(\/.*)?|victory)$/.test(specifier) ||
      /^@mui\/material\/(Menu|Dialog|Drawer|Modal|Popover|Popper|Tooltip|Tabs|Snackbar|Select|Autocomplete|TextField|AppBar|Divider|Link)$/.test(specifier),
    );
    expect(Object.fromEntries(banned.map((specifier) => [specifier, imports.get(specifier)]))).toEqual({});
  });
});
