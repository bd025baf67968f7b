import type { Meta, StoryObj } from '@storybook/react';
import { parseDefinition } from '@atendimento/schemas/registers/index';
import { withShell } from '../../stories/StoryShell';
import { storyUser } from '../../stories/fixtures';
import { RegisterAdmin } from './RegisterAdmin';
import { fakeRegister } from './fakeRegister';
import { definitionsRoute, viewOf } from './views';
import schema from './vehicles/schema.json';
import ui from './vehicles/ui.json';
import list from './vehicles/list.json';

/**
 * "Adding a register = adding one folder": a register no code knows about (vehicles),
 * only its three JSON files, gets the generic list and form. The same folder, written to a
 * temp dir, is served by the real server in tests/server/registers/registers-definitions.spec.ts.
 */
const vehicles = viewOf(parseDefinition('vehicles', { schema, ui, list }));

const meta = {
  title: 'Cadastros/Cadastro novo (só a pasta)',
  component: RegisterAdmin,
  decorators: [withShell],
  args: { names: ['vehicles'] },
  parameters: {
    shell: {
      path: '/vehicles',
      pattern: '/*',
      user: storyUser({ claims: { admin: true } }),
      api: {
        ...definitionsRoute(vehicles),
        ...fakeRegister('vehicles', [
          { id: 'v1', model: 'Kombi', plate: 'ABC1D23', year: 1975, active: true, color: '#1976D2FF' },
          { id: 'v2', model: 'Fusca', plate: 'XYZ9A87', year: 1969, active: false, color: '#1976D2FF' },
        ]),
      },
    },
  },
} satisfies Meta<typeof RegisterAdmin>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The list from list.json: columns, sort by the title field, 5 per page. */
export const Vehicles: Story = {};
