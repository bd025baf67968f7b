import type { Meta, StoryObj } from '@storybook/react';
import { StoryConsole, recordingApi } from '../../fixtures/StoryConsole';
import { createConsoleStores } from '../../store/consoleStores';
import { appConfig, rooms } from '../../fixtures/chatFixtures';
import { ContactDrawer } from './ContactDrawer';
import { QuotesPane } from './QuotesPane';

/** The tenant's quotes portal (Configurações › ERP). */
export const quotesConfig = { ...appConfig, quotesUrl: 'https://portal.example/orcamentos' };
const portal = { data: { url: 'data:text/html,<h1>Or%C3%A7amentos do cliente 000123 loja 01</h1>', client: { A1_COD: '000123', A1_LOJA: '01' } } };
const noClient = Object.assign(new Error('Associe o Contato a um cliente para fazer um orçamento'), { status: 409 });

/** The pane beside the chat: the portal framed, a close button. */
const meta: Meta<typeof QuotesPane> = {
  title: 'Console/Orçamentos',
  component: QuotesPane,
  args: { paneId: 'quotes:room-1', roomId: 'room-1' },
  decorators: [(Story, ctx) => (
    <StoryConsole api={ctx.parameters.api ?? recordingApi({ 'GET /api/rooms/room-1/quotes': portal })} config={quotesConfig} stores={ctx.parameters.stores ?? createConsoleStores({ rooms, ui: { openRooms: ['room-1', 'quotes:room-1'] } })}>
      <div style={{ height: 520, display: 'flex' }}><Story /></div>
    </StoryConsole>
  )],
};
export default meta;
type Story = StoryObj<typeof QuotesPane>;

export const Portal: Story = {};

/** The console's stores of the drawer stories (specs read which panes are open). */
export const drawerStores = () => createConsoleStores({ rooms, ui: { openRooms: ['room-1'], drawerRoomId: 'room-1' } });

/** The drawer's 'Orçamentos' button of a contact linked to a client: the portal opens beside the chat. */
export const DrawerButton: Story = {
  render: () => <ContactDrawer roomId="room-1" />,
  parameters: { api: recordingApi({ ...drawerRoutes(), 'GET /api/rooms/room-1/quotes': portal }), stores: drawerStores() },
};

/** A contact without a client: the seed's message, and no pane. */
export const DrawerButtonNoClient: Story = {
  render: () => <ContactDrawer roomId="room-1" />,
  parameters: { api: recordingApi({ ...drawerRoutes(), 'GET /api/rooms/room-1/quotes': noClient }), stores: drawerStores() },
};

function drawerRoutes() {
  return { 'GET /api/rooms': { meta: { tab: 'chatsHistories', next: null }, data: [] }, 'GET /api/integration-chat/*': { data: [] } };
}
