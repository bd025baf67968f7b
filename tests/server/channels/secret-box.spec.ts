import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@atendimento/server';
import { isSealed, open, openPaths, seal, sealPaths, useSecretsKey } from '@atendimento/server/db/secret-box';

/** Channel secrets at rest (docs/channels.md "Secrets"): AES-256-GCM, a key from the environment. */
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'secrets-key-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('secret box', () => {
  it('seals with a fresh IV each time and opens back; a tampered value does not open', () => {
    useSecretsKey('chave-de-teste-com-mais-de-32-caracteres!!');
    const a = seal('token-super-secreto');
    const b = seal('token-super-secreto');
    expect(isSealed(a)).toBe(true);
    expect(a).not.toBe(b);
    expect(a).not.toContain('token-super-secreto');
    expect(open(a)).toBe('token-super-secreto');
    const tampered = a.slice(0, -3) + (a.endsWith('AAA') ? 'BBB' : 'AAA');
    expect(() => open(tampered)).toThrow();
  });

  it('opens values sealed with an earlier key of the process; a value from an unknown key names SECRETS_KEY', () => {
    useSecretsKey('primeira-chave-com-mais-de-32-caracteres!');
    const old = seal('segredo-antigo');
    useSecretsKey('segunda-chave-com-mais-de-32-caracteres!!');
    expect(open(old)).toBe('segredo-antigo');
    const foreign = old.replace(/^sealed:v1:[0-9a-f]{8}:/, 'sealed:v1:deadbeef:');
    expect(() => open(foreign)).toThrow(/SECRETS_KEY/);
  });

  it('seals nested paths only (mail passwords), leaves plain text stored before sealing readable', () => {
    useSecretsKey('chave-de-teste-com-mais-de-32-caracteres!!');
    const sealed = sealPaths({ imap: { host: 'imap.x', password: 'senha-imap' }, smtp: { password: '' } }, ['imap.password', 'smtp.password']);
    expect((sealed.imap as Record<string, string>).host).toBe('imap.x');
    expect(isSealed((sealed.imap as Record<string, string>).password)).toBe(true);
    expect((sealed.smtp as Record<string, string>).password).toBe('');
    expect(openPaths(sealed, ['imap.password'])).toEqual({ imap: { host: 'imap.x', password: 'senha-imap' }, smtp: { password: '' } });
    expect(open('valor-antigo-em-texto')).toBe('valor-antigo-em-texto');
  });
});

describe('SECRETS_KEY', () => {
  it('production settings without SECRETS_KEY refuse to start with a message saying what to set', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir(), JWT_SECRET: 'x'.repeat(40) })).toThrow(/SECRETS_KEY is not set.*openssl rand -base64 32/);
  });

  it('a short SECRETS_KEY is refused; a good one is used as is', () => {
    expect(() => loadConfig({ SECRETS_KEY: 'curta', DATA_DIR: tempDir() })).toThrow(/at least 32 characters/);
    const config = loadConfig({ NODE_ENV: 'production', SECRETS_KEY: 'k'.repeat(44), DATA_DIR: tempDir(), JWT_SECRET: 'x'.repeat(40) });
    expect(config.secretsKey).toBe('k'.repeat(44));
    expect(config.secretsKeySource).toBe('env');
  });

  it('outside production a key is generated once into DATA_DIR and read back on the next start', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.secretsKeySource).toBe('generated');
    expect(readFileSync(path.join(dir, 'secrets-key'), 'utf8')).toBe(first.secretsKey);
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.secretsKeySource).toBe('file');
    expect(second.secretsKey).toBe(first.secretsKey);
  });
});
