import type { Meta, StoryObj } from '@storybook/react';
import { withShell } from '../stories/StoryShell';
import { storyUser } from '../stories/fixtures';
import { ChatIntegrations, type ChatIntegrationSection } from './ChatIntegrations';

const pedidos: ChatIntegrationSection = {
  collection: 'pedidos',
  name: 'Pedidos Express',
  title: 'Pedidos',
  noItems: 'Sem pedidos para este chat',
  titleField: 'pedido',
  source: 'local',
  total: 2,
  items: [
    { id: 'P-2', pedido: 'P-2', valor: 100, telefone: '5511999990001' },
    { id: 'P-1', pedido: 'P-1', valor: 300, telefone: '5511999990001' },
  ],
};
const clientes: ChatIntegrationSection = { collection: 'clienteserp', name: 'Clientes ERP', title: 'Clientes', noItems: 'Nenhum cliente com este telefone', titleField: 'A1_NOME', source: 'erp', total: 0, items: [] };
const failed: ChatIntegrationSection = { ...clientes, noItems: 'Erro na Busca!', error: true };

const answer = (sections: ChatIntegrationSection[]) => ({ 'GET /api/integration-chat/*': { body: { data: sections } } });

const meta = {
  title: 'Integrações/Painel do contato',
  component: ChatIntegrations,
  decorators: [withShell],
  args: { chatId: '5511999990001' },
  parameters: { shell: { user: storyUser(), api: answer([pedidos, clientes]) } },
} satisfies Meta<typeof ChatIntegrations>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Items found by the chat in one integration; the other shows its noItems text. */
export const Default: Story = {};

/** The ERP failed for one integration: its section says 'Erro na Busca!'. */
export const ErpFailed: Story = { parameters: { shell: { api: answer([pedidos, failed]) } } };

/** No integration searches by chat for this user. */
export const NoIntegrations: Story = { parameters: { shell: { api: answer([]) } } };
