// `npm run test:pg`: the server suite against PostgreSQL. Each test file creates its own schema
// (tests/helpers/test-server.ts), so parallel runs never collide.
import { spawnSync } from 'node:child_process';

const env = { ...process.env, DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' };
const result = spawnSync('npx', ['vitest', 'run', '--project', 'server', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
