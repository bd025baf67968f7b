import type { Meta, StoryObj } from '@storybook/react';
import { StoryConsole, recordingApi } from '../../fixtures/StoryConsole';
import { ChatIntegrations, type ChatIntegrationSection } from './ChatIntegrations';

export const pedidos: ChatIntegrationSection = {
  collection: 'pedidos',
  name: 'Pedidos Express',
  title: 'Pedidos',
  noItems: 'Sem pedidos para este chat',
  titleField: 'pedido',
  linkField: 'telefone',
  labels: { pedido: 'Pedido', valor: 'Valor (R$)', telefone: 'Telefone' },
  source: 'local',
  total: 2,
  items: [
    { id: 'P-2', pedido: 'P-2', valor: 100, telefone: '5511987654321' },
    { id: 'P-1', pedido: 'P-1', valor: 300, telefone: '5511987654321' },
  ],
};
/** More items than the section shows before 'Ver mais'. */
const manyPedidos: ChatIntegrationSection = {
  ...pedidos,
  total: 5,
  items: ['P-5', 'P-4', 'P-3', 'P-2', 'P-1'].map((id, i) => ({ id, pedido: id, valor: (i + 1) * 10 })),
};
export const clientes: ChatIntegrationSection = { collection: 'clienteserp', name: 'Clientes ERP', title: 'Clientes', noItems: 'Nenhum cliente com este telefone', titleField: 'A1_NOME', source: 'erp', total: 0, items: [] };
const failed: ChatIntegrationSection = { ...clientes, noItems: 'Erro na Busca!', error: true };

/** GET /api/integration-chat/{chatId} answering these sections. */
export const integrationsApi = (answer: unknown = { data: [pedidos, clientes] }, more: Record<string, unknown> = {}) =>
  recordingApi({ 'GET /api/integration-chat/*': answer, 'DELETE /api/integration/*': { data: { id: 'P-2' } }, 'GET /api/integration-definitions': { data: [] }, ...more });

const meta: Meta<typeof ChatIntegrations> = {
  title: 'Console/ContactDrawer/Integrações',
  component: ChatIntegrations,
  args: { chatId: '5511987654321' },
  decorators: [(Story, ctx) => (
    <StoryConsole api={ctx.parameters.api ?? integrationsApi()} navigate={ctx.parameters.navigate}>
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

/** Five items: three show, 'Ver mais' shows the rest. */
export const ManyItems: Story = { parameters: { api: integrationsApi({ data: [manyPedidos] }) } };

/** The server refuses the delete (a read-only integration for this user): its message is toasted. */
export const DeleteRefused: Story = {
  parameters: { api: integrationsApi(undefined, { 'DELETE /api/integration/*': () => new Error('Você não tem permissão para acessar este recurso.') }) },
};
