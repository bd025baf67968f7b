import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Channel secrets at rest (docs/channels.md "Secrets"): AES-256-GCM with a key from SECRETS_KEY
 * (or the one `npm start` keeps in DATA_DIR). A sealed value is a string
 * `sealed:v1:{keyId}:{base64url(iv | tag | ciphertext)}`; the key id (first bytes of the key's
 * SHA-256) lets a process hold several keys: tests start servers with different data
 * directories in one process, and a rotated key can still open what the previous one sealed.
 *
 * It lives beside the repositories because sealing is how these columns are stored: every
 * reader of `data.provider` gets plain values, every writer stores sealed ones.
 */
const PREFIX = 'sealed:v1:';

interface Key {
  id: string;
  bytes: Buffer;
}

const keyring = new Map<string, Key>();
let current: Key | null = null;

/** 32 bytes from the configured text: base64/hex of 32 bytes as is, anything else hashed. */
function keyBytes(secret: string): Buffer {
  if (/^[0-9a-f]{64}$/i.test(secret)) return Buffer.from(secret, 'hex');
  const b64 = Buffer.from(secret, 'base64url');
  if (b64.length === 32 && secret.length >= 43) return b64;
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Makes `secret` the key new values are sealed with (and keeps earlier ones for reading). */
export function useSecretsKey(secret: string): void {
  const bytes = keyBytes(secret);
  const id = createHash('sha256').update(bytes).digest('hex').slice(0, 8);
  const key = { id, bytes };
  keyring.set(id, key);
  current = key;
}

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

export function seal(plain: string): string {
  if (!current) throw new Error('seal: no secrets key. Call useSecretsKey(config.secretsKey) first (createServer does).');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', current.bytes, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${PREFIX}${current.id}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The plain value; a value stored before sealing existed is returned as is. */
export function open(value: string): string {
  if (!isSealed(value)) return value;
  const [keyId, payload] = value.slice(PREFIX.length).split(':');
  const key = keyring.get(keyId ?? '');
  if (!key || !payload) throw new Error(`open: secret sealed with key ${keyId}, which this process does not hold. Set SECRETS_KEY to the key used when it was saved.`);
  const raw = Buffer.from(payload, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

type Json = Record<string, unknown>;

function mapPaths(settings: Json, paths: readonly string[], fn: (value: string) => string): Json {
  const copy: Json = structuredClone(settings);
  for (const path of paths) {
    const keys = path.split('.');
    let node: Json | undefined = copy;
    for (const key of keys.slice(0, -1)) node = node && typeof node[key] === 'object' && node[key] !== null ? (node[key] as Json) : undefined;
    const last = keys[keys.length - 1]!;
    if (node && typeof node[last] === 'string' && node[last] !== '') node[last] = fn(node[last] as string);
  }
  return copy;
}

/** A copy of `settings` with the string values at `paths` ('imap.password') sealed. */
export function sealPaths(settings: Json, paths: readonly string[]): Json {
  return mapPaths(settings, paths, (v) => (isSealed(v) ? v : seal(v)));
}

/** A copy of `settings` with the values at `paths` opened. */
export function openPaths(settings: Json, paths: readonly string[]): Json {
  return mapPaths(settings, paths, open);
}
