/// <reference types="vite/client" />
import { parseDefinition, indexDefinitions } from './definition';
import type { RegisterDefinition } from './types';

/**
 * Every register folder of schemas/registers, bundled by Vite at build time (browser, vitest,
 * Storybook): adding a folder adds the register with no code. Node servers read the same
 * folders from disk instead (server/src/services/registers/definition-loader.ts), because
 * `import.meta.glob` exists only under Vite.
 */
const files = import.meta.glob('../../registers/*/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

function group(): Map<string, Record<string, unknown>> {
  const folders = new Map<string, Record<string, unknown>>();
  for (const [file, json] of Object.entries(files)) {
    const match = /registers\/([^/]+)\/(schema|ui|list)\.json$/.exec(file);
    if (!match) continue;
    const [, folder, kind] = match;
    if (!folders.has(folder!)) folders.set(folder!, {});
    folders.get(folder!)![kind!] = json;
  }
  return folders;
}

/** The bundled registers, checked and completed with their defaults, by name. */
export const REGISTERS: ReadonlyMap<string, RegisterDefinition> = indexDefinitions(
  [...group()].map(([folder, f]) => parseDefinition(folder, { schema: f.schema, ui: f.ui, list: f.list })),
);
