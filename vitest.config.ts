import { configDefaults, defineConfig } from 'vitest/config';

/**
 * `npm test` runs both projects: `server` (Node: schemas, server, integrations, API tests,
 * reliability) and `web` (jsdom: engine and console components, rendered from their stories).
 * `npm run test:pg` runs the `server` project again with DATABASE_URL pointing at PostgreSQL.
 * Browser tests live in tests/e2e with their own config.
 */
/**
 * Web files that count on fresh module state (the session's realtime client and its
 * subscriptions, the phone formats' first download, the settings page's caches): they run in a
 * project of their own with a module graph per file; the rest of `web` shares one per worker.
 */
const WEB_FRESH_MODULES = [
  'engine/src/api/realtime.spec.ts',
  'engine/src/pages/TenantSettingsPage.spec.tsx',
  'console/src/ui/format.spec.ts',
  'console/src/features/chat-card/ChatCard.spec.tsx',
];

const webProject = {
  // Vite 8 transforms with oxc: React's automatic JSX runtime, as the engine's build uses.
  oxc: { jsx: { runtime: 'automatic' as const } },
  test: {
    environment: 'jsdom',
    setupFiles: ['tests/web-setup.ts'],
    testTimeout: 30_000,
    // Same CI-only retry as the browser tests (jsdom timing under load); locally none.
    retry: process.env.CI ? 1 : 0,
  },
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['schemas/src/**/*.spec.ts', 'server/src/**/*.spec.ts', 'integrations/src/**/*.spec.ts', 'tests/server/**/*.spec.ts', 'tests/reliability/**/*.spec.ts'],
          // *.pg.spec.ts need PostgreSQL (several server processes on one database): they run
          // in `npm run test:pg`, which sets DATABASE_URL, and are left out of the SQLite run.
          exclude: [...configDefaults.exclude, ...(process.env.DATABASE_URL ? [] : ['**/*.pg.spec.ts'])],
          // Limits for a hung test, not performance targets (those are in `npm run bench`): the
          // storms and matrices take several times longer when the 2-core box is busy.
          testTimeout: 90_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // One module graph per worker, not per file: importing the server (knex, koa, argon2,
          // every schema) took ~2.8 s per file, half of the project's wall time. Each file still
          // builds its own server and database; all 722 tests passed both ways (docs/testing.md).
          isolate: false,
        },
      },
      {
        ...webProject,
        test: {
          ...webProject.test,
          name: 'web',
          include: ['engine/src/**/*.spec.tsx', 'console/src/**/*.spec.tsx', 'engine/src/**/*.spec.ts', 'console/src/**/*.spec.ts'],
          exclude: [...configDefaults.exclude, ...WEB_FRESH_MODULES],
          // As in `server`: one module graph per worker (501 → 321 s for the project, docs/testing.md).
          isolate: false,
        },
      },
      { ...webProject, test: { ...webProject.test, name: 'web-fresh', include: WEB_FRESH_MODULES } },
    ],
  },
});
