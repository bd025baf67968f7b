import { describe, expect, it } from 'vitest';
import { newId, newSecret } from './ids';

describe('ids', () => {
  it('newId: UUIDv7 layout, unique and in creation order across pool refills', () => {
    const ids = Array.from({ length: 5_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // 5,000 ids draw 40,000 random bytes: the pool was refilled several times, never repeated.
    expect(new Set(ids.map((id) => id.slice(19))).size).toBe(ids.length);
  });

  it('newSecret: 256 random bits, base64url, never repeated', () => {
    const secrets = Array.from({ length: 1_000 }, () => newSecret());
    for (const s of secrets) expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
  });
});
