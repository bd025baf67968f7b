import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
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
    /**
     * A temp file to stream an upload into (uploads were held whole in memory, 8
     * concurrent 95 MB uploads took RSS to 1.7 GB). Same disk as the store, so `adopt` is a rename.
     */
    temp(): { path: string; stream: WriteStream } {
      const dir = path.join(root, '.tmp');
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${randomBytes(18).toString('base64url')}.part`);
      return { path: file, stream: createWriteStream(file) };
    },
    /** Moves a finished temp file into the tenant's folder under a random name. */
    async adopt(tenantId: string, tempPath: string, ext: string, size: number): Promise<StoredBlob> {
      if (!SAFE_TENANT.test(tenantId)) throw new Error(`blobStore.adopt: invalid tenant id "${tenantId}".`);
      const name = `${randomBytes(18).toString('base64url')}.${ext.toLowerCase()}`;
      const dir = path.join(root, tenantId);
      await mkdir(dir, { recursive: true });
      await rename(tempPath, path.join(dir, name));
      return { url: `/api/files/${tenantId}/${name}`, name, size };
    },
    /** Drops a temp file that will not be kept (refused or interrupted upload). */
    async discard(tempPath: string): Promise<void> {
      await rm(tempPath, { force: true });
    },
    /** Deletes a stored file (LGPD erase and retention); false when the name is malformed or already gone. */
    async remove(tenantId: string, name: string): Promise<boolean> {
      if (!SAFE_TENANT.test(tenantId) || !SAFE_NAME.test(name)) return false;
      try {
        await unlink(path.join(root, tenantId, name));
        return true;
      } catch {
        return false;
      }
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
