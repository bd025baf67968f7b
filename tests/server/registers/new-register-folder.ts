import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A register no code knows about (vehicles), as the three JSON files an admin would add. The
 * one copy lives beside the engine's story of it (engine/src/registers/stories/vehicles/), so
 * the screens and the server are proven on the same folder. Tests copy it to a temp dir and
 * point REGISTERS_DIRS at it (adding a register is adding one folder).
 */
export const VEHICLES_FOLDER = path.resolve('engine/src/registers/stories/vehicles');

/** Copies the vehicles folder under a new temp dir and answers that dir (for REGISTERS_DIRS). */
export function writeVehiclesFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'registers-'));
  cpSync(VEHICLES_FOLDER, path.join(dir, 'vehicles'), { recursive: true });
  return dir;
}
