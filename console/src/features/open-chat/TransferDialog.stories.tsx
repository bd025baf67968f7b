import type { Meta, StoryObj } from '@storybook/react';
import type { AppConfig, TransferTargets } from '@atendimento/schemas';
import { TransferDialog, type TransferDialogInput } from './TransferDialog';
import { confirmRecorder, withConsoleConfig } from '../../fixtures/dialogStory';
import { appConfig } from '../../fixtures/chatFixtures';

const recorder = confirmRecorder<TransferDialogInput>();
/** What the stories' onConfirm received (specs assert on it). */
export const confirmedTransfers = recorder.confirmed;

export const targets: TransferTargets = {
  agents: [
    { id: 'bia', displayName: 'Bia Suporte', email: 'bia@demo.test', photoUrl: null, depts: [{ id: 'suporte', displayName: 'Suporte' }], online: true, selectable: true },
    { id: 'caio', displayName: 'Caio Vendas', email: 'caio@demo.test', photoUrl: null, depts: [{ id: 'vendas', displayName: 'Vendas' }], online: false, selectable: false },
  ],
  queues: [
    { id: 'deptosuporte', name: 'Suporte', departmentId: 'suporte', onlineAgents: 1, selectable: true },
    { id: 'deptofinanceiro', name: 'Financeiro', departmentId: 'financeiro', onlineAgents: 0, selectable: false },
  ],
  justifies: [],
  remainInChat: true,
  canTransfer: true,
  canMoveQueues: true,
};

const withJustifies: AppConfig = { ...appConfig, transferJustify: ['Fora do escopo', 'Cliente pediu'] };

const meta: Meta<typeof TransferDialog> = {
  title: 'Console/TransferDialog',
  component: TransferDialog,
  args: {
    open: true,
    kind: 'agents',
    targets,
    onCancel: () => undefined,
    onConfirm: recorder.onConfirm,
  },
  decorators: [withConsoleConfig],
};
export default meta;
type Story = StoryObj<typeof TransferDialog>;

/** Transfer to agents: an offline agent is listed but not selectable (no enableAbsentTransfer). */
export const ToAgents: Story = {};

/** The tenant lists transfer justifications: one must be chosen. */
export const ToAgentsWithJustify: Story = {
  args: { targets: { ...targets, justifies: withJustifies.transferJustify } },
  parameters: { config: withJustifies },
};

/** Move to queues: a queue with nobody online is marked 'sem agentes online'. */
export const ToQueues: Story = { args: { kind: 'queues' } };

/** While the targets load. */
export const Loading: Story = { args: { targets: null } };
