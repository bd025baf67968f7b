import type { Meta, StoryObj } from '@storybook/react';
import type { AppConfig, TagOption } from '@atendimento/schemas';
import { TagsDialog } from './TagsDialog';
import { confirmRecorder, withConsoleConfig } from '../../fixtures/dialogStory';
import { appConfig } from '../../fixtures/chatFixtures';

const recorder = confirmRecorder<string[]>();
/** What the stories' onConfirm received (specs assert on it). */
export const savedTags = recorder.confirmed;

export const tagOptions: TagOption[] = [
  { id: 'urgente', name: 'Urgente', color: '#D32F2FFF', department: null, active: true },
  { id: 'venda', name: 'Venda', color: '#388E3CFF', department: 'vendas', active: true },
  { id: 'garantia', name: 'Garantia', color: '#F57C00FF', department: 'suporte', active: true },
  { id: 'velha', name: 'Antiga', color: null, department: null, active: false },
];

const room = { tags: [] as string[], departmentId: 'vendas', queues: [{ id: 'deptovendas', name: 'Vendas', displayName: 'Vendas', parent: null }] };
const claims = (extra: Record<string, boolean>): AppConfig => ({ ...appConfig, claims: { ...appConfig.claims, ...extra } });

const meta: Meta<typeof TagsDialog> = {
  title: 'Console/TagsDialog',
  component: TagsDialog,
  args: {
    open: true,
    room,
    tags: tagOptions,
    onCancel: () => undefined,
    onConfirm: recorder.onConfirm,
  },
  decorators: [withConsoleConfig],
};
export default meta;
type Story = StoryObj<typeof TagsDialog>;

/** One tag per chat (no multiTags); inactive tags are not offered. */
export const Single: Story = {};

/** Tenant claim multiTags: several tags. */
export const Multi: Story = { parameters: { config: claims({ multiTags: true }) }, args: { room: { ...room, tags: ['urgente'] } } };

/** Tenant claim tagsPerDepto: a vendas chat is not offered suporte's tags. */
export const PerDepartment: Story = { parameters: { config: claims({ tagsPerDepto: true }) } };
