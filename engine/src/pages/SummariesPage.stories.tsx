import type { Meta, StoryObj } from '@storybook/react';
import { SummariesPage } from './SummariesPage';
import { withShell } from '../stories/StoryShell';
import { agentUser, storyConfig } from '../stories/fixtures';

const chat = { id: 'r-42', roomInc: 42, contact: 'Maria Cliente', createdAt: '2026-01-05T12:00:00.000Z', closedAt: null, active: true };

const meta = {
  title: 'Páginas/Resumos',
  component: SummariesPage,
  decorators: [withShell],
  parameters: {
    shell: {
      path: '/sumaries',
      user: agentUser,
      config: storyConfig({ claims: { sumarizeRoom: true } }),
      api: {
        'GET /api/sumaries/42': { body: { data: chat } },
        'GET /api/sumaries/*': { status: 404, body: { error: 'not_found', errorMessage: 'Não encontrado' } },
        'POST /api/rooms/sumarize/*': { body: { data: { sentTo: agentUser.email } } },
      },
    },
  },
} satisfies Meta<typeof SummariesPage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Type 42 and search: an active chat, 'Gerar resumo' sends the summary. */
export const Default: Story = {};

/** The mail could not be sent. */
export const SendFails: Story = {
  parameters: { shell: { api: { 'POST /api/rooms/sumarize/*': { status: 500, body: { error: 'internal', errorMessage: 'Erro' } } } } },
};
