import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

interface StoredBlob {
  url: string;
  name: string;
  size: number;
}

const SAFE_NAME = /^[A-Za-z0-9_-]{16,64}\.[a-z0-9]{1,8}$/;
const SAFE_TENANT = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Files on local disk under data/blobs/{tenant}/. Names are random (unguessable), so a URL is
 * a capability; tenant is part of the path and checked on read.
 */
export function createBlobStore(root: string) {
  return {
    async put(tenantId: string, bytes: Buffer, ext: string): Promise<StoredBlob> {
      if (!SAFE_TENANT.test(tenantId)) throw new Error(`blobStore.put: invalid tenant id "${tenantId}".`);
      const name = `${randomBytes(18).toString('base64url')}.${ext.toLowerCase()}`;
      const dir = path.join(root, tenantId);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, name), bytes);
      return { url: `/api/files/${tenantId}/${name}`, name, size: bytes.length };
    },
    /** Opens a stored file, or null when the name is malformed or missing. */
    async open(tenantId: string, name: string) {
      if (!SAFE_TENANT.test(tenantId) || !SAFE_NAME.test(name)) return null;
      const file = path.join(root, tenantId, name);
      try {
        const info = await stat(file);
        return { size: info.size, ext: path.extname(name).slice(1), stream: () => createReadStream(file) };
      } catch {
        return null;
      }
    },
  };
}

export type BlobStore = ReturnType<typeof createBlobStore>;
