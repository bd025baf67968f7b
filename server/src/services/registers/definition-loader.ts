import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { indexDefinitions, parseDefinition, type RegisterDefinition } from '@atendimento/schemas/registers/index';

/** schemas/registers of the installed @atendimento/schemas package. */
export function defaultRegistersDir(): string {
  const entry = createRequire(import.meta.url).resolve('@atendimento/schemas');
  return path.resolve(path.dirname(entry), '../registers');
}

function readJson(file: string, folder: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`loadRegisterDefinitions: ${path.basename(file)} of register "${folder}" is not valid JSON (${(error as Error).message}). Fix the file.`);
  }
}

/**
 * Reads every register folder (schema.json, ui.json, list.json) under `dirs`, in order; a
 * later directory may add registers but not redefine one. Adding a folder adds a register.
 */
export function loadRegisterDefinitions(dirs: string[] = [defaultRegistersDir()]): Map<string, RegisterDefinition> {
  const definitions: RegisterDefinition[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) throw new Error(`loadRegisterDefinitions: no directory ${dir}. Pass an existing registers directory.`);
    for (const folder of readdirSync(dir).sort()) {
      const full = path.join(dir, folder);
      if (!statSync(full).isDirectory()) continue;
      const schemaFile = path.join(full, 'schema.json');
      const listFile = path.join(full, 'list.json');
      if (!existsSync(schemaFile) || !existsSync(listFile)) {
        throw new Error(`loadRegisterDefinitions: register folder "${folder}" needs schema.json and list.json (ui.json optional).`);
      }
      const uiFile = path.join(full, 'ui.json');
      definitions.push(
        parseDefinition(folder, {
          schema: readJson(schemaFile, folder),
          ui: existsSync(uiFile) ? readJson(uiFile, folder) : undefined,
          list: readJson(listFile, folder),
        }),
      );
    }
  }
  return indexDefinitions(definitions);
}
