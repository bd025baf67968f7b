import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A register no code knows about (vehicles), as the three JSON files an admin would add.
 * Tests write it to a temp dir and point REGISTERS_DIRS at it (issue 6: adding a register is
 * adding one folder).
 */
export const VEHICLES = {
  schema: {
    type: 'object',
    title: 'Veículos',
    required: ['model', 'plate'],
    properties: {
      active: { type: 'boolean', title: 'Ativo', default: true },
      model: { type: 'string', title: 'Modelo', minLength: 1, maxLength: 80, errorMessage: 'Informe o modelo' },
      plate: { type: 'string', title: 'Placa', pattern: '^[A-Z]{3}[0-9][A-Z0-9][0-9]{2}$', errorMessage: 'Placa inválida (ex.: ABC1D23)' },
      year: { type: 'integer', title: 'Ano', minimum: 1950, maximum: 2100, errorMessage: 'Informe um valor numérico' },
      color: { type: 'string', title: 'Cor', default: '#1976D2FF' },
    },
  },
  ui: {
    'ui:order': ['active', 'model', 'plate', 'year', 'color'],
    active: { 'ui:widget': 'switch' },
    color: { 'ui:widget': 'color' },
  },
  list: {
    name: 'vehicles',
    label: 'Veículos',
    itemLabel: 'Veículo',
    icon: 'DirectionsCar',
    access: 'admin-or-permission',
    titleField: 'model',
    columns: ['model', 'plate', 'year', { field: 'active', type: 'boolean' }],
    searchFields: ['model', 'plate'],
    pageSizes: [5, 10],
  },
} as const;

/** Writes the vehicles folder under a new temp dir and answers that dir (for REGISTERS_DIRS). */
export function writeVehiclesFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'registers-'));
  const folder = path.join(dir, 'vehicles');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'schema.json'), JSON.stringify(VEHICLES.schema, null, 2));
  writeFileSync(path.join(folder, 'ui.json'), JSON.stringify(VEHICLES.ui, null, 2));
  writeFileSync(path.join(folder, 'list.json'), JSON.stringify(VEHICLES.list, null, 2));
  return dir;
}
