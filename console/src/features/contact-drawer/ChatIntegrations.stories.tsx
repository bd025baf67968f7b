import type { Meta, StoryObj } from '@storybook/react';
import { StoryConsole, recordingApi } from '../../fixtures/StoryConsole';
import { ChatIntegrations, type ChatIntegrationSection } from './ChatIntegrations';

export const pedidos: ChatIntegrationSection = {
  collection: 'pedidos',
  name: 'Pedidos Express',
  title: 'Pedidos',
  noItems: 'Sem pedidos para este chat',
  titleField: 'pedido',
  source: 'local',
  total: 2,
  items: [
    { id: 'P-2', pedido: 'P-2', valor: 100, telefone: '5511987654321' },
    { id: 'P-1', pedido: 'P-1', valor: 300, telefone: '5511987654321' },
  ],
};
export const clientes: ChatIntegrationSection = { collection: 'clienteserp', name: 'Clientes ERP', title: 'Clientes', noItems: 'Nenhum cliente com este telefone', titleField: 'A1_NOME', source: 'erp', total: 0, items: [] };
const failed: ChatIntegrationSection = { ...clientes, noItems: 'Erro na Busca!', error: true };

/** GET /api/integration-chat/{chatId} answering these sections. */
export const integrationsApi = (answer: unknown = { data: [pedidos, clientes] }) => recordingApi({ 'GET /api/integration-chat/*': answer });

const meta: Meta<typeof ChatIntegrations> = {
  title: 'Console/ContactDrawer/Integrações',
  component: ChatIntegrations,
  args: { chatId: '5511987654321' },
  decorators: [(Story, ctx) => (
    <StoryConsole api={ctx.parameters.api ?? integrationsApi()}>
      <div style={{ width: 226 }}><Story /></div>
    </StoryConsole>
  )],
};
export default meta;
type Story = StoryObj<typeof ChatIntegrations>;

/** Items found by the chat in one integration; the other shows its noItems text. */
export const Default: Story = {};

/** The ERP failed for one integration: its section says 'Erro na Busca!'. */
export const ErpFailed: Story = { parameters: { api: integrationsApi({ data: [pedidos, failed] }) } };

/** No integration searches by chat for this user. */
export const NoIntegrations: Story = { parameters: { api: integrationsApi({ data: [] }) } };

/** The whole call failed. */
export const CallFailed: Story = { parameters: { api: integrationsApi(() => new Error('Falha')) } };
