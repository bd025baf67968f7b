import path from 'node:path';
import { startTestServer } from '../helpers/test-server';
const t = await startTestServer({ staticDir: path.resolve('engine/dist') });
console.log('URL', t.baseUrl, JSON.stringify(t.hosts));
setInterval(() => {}, 1 << 30);
