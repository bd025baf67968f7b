// Builds the server into one ES module, server/dist/main.mjs, so `npm start` (and the restart
// benchmark, the kill -9 test) run plain JavaScript instead of transpiling ~200 TypeScript files
// through tsx on every start (docs/running.md "Built server"). Our workspace packages
// (@atendimento/*) are bundled; every npm dependency stays an import of node_modules.
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
export const SERVER_BUNDLE = path.join(root, 'server', 'dist', 'main.mjs');
const SOURCES = ['server/src', 'schemas/src', 'schemas/registers', 'integrations/src'].map((dir) => path.join(root, dir));

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** Builds server/dist/main.mjs unless it is newer than every source; returns its path. */
export async function buildServer({ force = false } = {}) {
  const built = existsSync(SERVER_BUNDLE) ? statSync(SERVER_BUNDLE).mtimeMs : 0;
  if (!force && built > Math.max(...SOURCES.map(newest))) return SERVER_BUNDLE;
  const result = await build({
    write: false,
    entryPoints: [path.join(root, 'server', 'src', 'main.ts')],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    // Bundled CommonJS code (and createRequire users) need `require` inside an ES module.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [
      {
        name: 'npm-dependencies-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@atendimento/') ? undefined : { path: args.path, external: true }));
        },
      },
    ],
  });
  // Test files start server processes in parallel: each build lands whole (write, then rename).
  mkdirSync(path.dirname(SERVER_BUNDLE), { recursive: true });
  for (const file of result.outputFiles) {
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
  }
  return SERVER_BUNDLE;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  await buildServer({ force: true });
  console.log(`server/dist/main.mjs built in ${Date.now() - started} ms`);
}
