import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Provider payloads kept in this repository (integrations/fixtures/<kind>, each folder with a
 * SOURCES.md saying where every file comes from). The product's scripted customer, the adapter
 * specs and the server tests read them from here, never from outside the repository.
 */
type FixtureKind = 'whatsapp' | 'zapi' | 'email';

export function fixturesDir(kind: FixtureKind): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures', kind);
}
