import type { Meta, StoryObj } from '@storybook/react';
import type { RoomsPageAnswer } from '@atendimento/schemas';
import { ContactDrawer } from './ContactDrawer';
import { StoryConsole, recordingApi, type RecordedCall } from '../../fixtures/StoryConsole';
import { createConsoleStores } from '../../store/consoleStores';
import { adminUser, agentUser, contacts, iso, room, rooms } from '../../fixtures/chatFixtures';
import { clientes, pedidos } from './ChatIntegrations.stories';

/** Seven closed chats of Maria, answered 5 at a time like GET /api/rooms?tab=chatsHistories. */
const history = Array.from({ length: 7 }, (_, i) =>
  room(200 + i, {
    active: false,
    author: { id: 'contact-1', displayName: 'Maria Souza' },
    closedBy: { id: agentUser.id, displayName: agentUser.displayName, justify: i === 0 ? 'Resolvido' : 'Sem resposta do cliente', obs: null, nextContact: null, closedAt: iso(60 * 24 * (i + 1)), noMessage: false, mass: false },
  }),
);

export function historyPage(call: RecordedCall): RoomsPageAnswer {
  const params = new URLSearchParams(call.path.split('?')[1]);
  const start = Number(params.get('after') ?? 0);
  const limit = Number(params.get('limit'));
  const data = history.slice(start, start + limit);
  return { meta: { tab: 'chatsHistories', next: start + limit < history.length ? String(start + limit) : null }, data };
}

export const drawerApi = () =>
  recordingApi({
    'GET /api/contacts/contact-1': contacts[0],
    'GET /api/contacts/contact-4': contacts[1],
    'GET /api/rooms': historyPage,
    'GET /api/integration-chat/*': { data: [pedidos, clientes] },
  });

const meta: Meta<typeof ContactDrawer> = {
  title: 'Console/ContactDrawer',
  component: ContactDrawer,
  args: { roomId: 'room-1' },
  decorators: [(Story, ctx) => (
    <StoryConsole api={ctx.parameters.api ?? drawerApi()} user={ctx.parameters.user} stores={ctx.parameters.stores ?? createConsoleStores({ rooms })}>
      <div style={{ height: 640, display: 'flex' }}><Story /></div>
    </StoryConsole>
  )],
};
export default meta;
type Story = StoryObj<typeof ContactDrawer>;

export const Contact: Story = {};
export const BlockedContact: Story = { args: { roomId: 'room-4' } };
/** An admin (or a user holding the contacts permission) also reads the contact's record. */
export const AsAdmin: Story = { parameters: { user: adminUser } };
