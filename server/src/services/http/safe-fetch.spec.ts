import dns from 'node:dns/promises';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeFetch, ForbiddenTargetError, isForbiddenAddress } from './safe-fetch';

let target: http.Server;
let port = 0;
beforeAll(async () => {
  target = http.createServer((req, res) => {
    if (req.url === '/redirect-internal') {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` });
      return res.end();
    }
    if (req.url === '/redirect-metadata') {
      res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ path: req.url, method: req.method }));
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  port = (target.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => target.close(() => r())));

describe('safeFetch (R13 SSRF)', () => {
  const untrusted = createSafeFetch();

  it.each([
    `http://127.0.0.1:PORT/`,
    `http://[::1]:PORT/`,
    `http://[::ffff:127.0.0.1]:PORT/`,
    `http://2130706433:PORT/`,
    `http://0x7f.1:PORT/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://10.1.2.3/',
    'http://192.168.0.10/',
    'http://[fd00::1]/',
    'http://localhost:PORT/',
    'file:///etc/passwd',
  ])('refuses %s', async (raw) => {
    const url = raw.replace('PORT', String(port));
    await expect(untrusted(url)).rejects.toBeInstanceOf(ForbiddenTargetError);
  });

  it('refuses a host name that resolves to a private address (checked after DNS, at connect)', async () => {
    // The machine's own name resolves to a loopback or private address in /etc/hosts.
    const address = (await dns.lookup(os.hostname())).address;
    expect(isForbiddenAddress(address)).toBe(true);
    const error = await untrusted(`http://${os.hostname()}:${port}/`).catch((e) => e);
    expect(error).toBeInstanceOf(ForbiddenTargetError);
  });

  it('calls a trusted host and refuses a redirect from it to an internal address', async () => {
    const trusted = createSafeFetch({ trustedHosts: [`127.0.0.1:${port}`] });
    const ok = await trusted(`http://127.0.0.1:${port}/ok`, { method: 'POST', body: '{}' });
    expect(await ok.json()).toEqual({ path: '/ok', method: 'POST' });
    // Redirect to the same trusted host is fine; to metadata it is not.
    expect((await trusted(`http://127.0.0.1:${port}/redirect-internal`)).status).toBe(200);
    await expect(trusted(`http://127.0.0.1:${port}/redirect-metadata`)).rejects.toBeInstanceOf(ForbiddenTargetError);
  });

  it('classifies addresses', () => {
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '169.254.169.254', '100.64.0.1', '0.0.0.0', 'fe80::1']) expect(isForbiddenAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '200.160.2.3', '2804:14c::1']) expect(isForbiddenAddress(a), a).toBe(false);
  });
});
