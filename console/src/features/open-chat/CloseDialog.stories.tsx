import type { Meta, StoryObj } from '@storybook/react';
import type { AppConfig, CloseRoomInput } from '@atendimento/schemas';
import { CloseDialog } from './CloseDialog';
import { confirmRecorder, withConsoleConfig } from '../../fixtures/dialogStory';
import { appConfig } from '../../fixtures/chatFixtures';

const recorder = confirmRecorder<CloseRoomInput>();
/** What the stories' onConfirm received (specs assert on it). */
export const confirmedCloses = recorder.confirmed;

const withClosing = (closeJustify: AppConfig['closeJustify'], claims: Record<string, boolean> = {}): AppConfig => ({ ...appConfig, claims: { ...appConfig.claims, hasNextContact: false, ...claims }, closeJustify });

const meta: Meta<typeof CloseDialog> = {
  title: 'Console/CloseDialog',
  component: CloseDialog,
  args: {
    open: true,
    onCancel: () => undefined,
    onConfirm: recorder.onConfirm,
  },
  decorators: [withConsoleConfig],
};
export default meta;
type Story = StoryObj<typeof CloseDialog>;

/** The closure configuration lists justifications: one must be chosen ('Escolha uma justificativa de encerramento!'). */
export const WithJustifies: Story = {
  parameters: { config: withClosing({ justifies: ['Resolvido', 'Sem resposta do cliente'], obsRules: [], reportOnly: false, nextMaxDate: 30 }) },
};

/** No justification configured and reportOnly off: the chat closes without one. */
export const NoJustifies: Story = {
  parameters: { config: withClosing({ justifies: [], obsRules: [], reportOnly: false, nextMaxDate: 30 }) },
};

/** Tenant claim hasNextContact: a next-contact date, at most nextMaxDate days ahead. */
export const NextContact: Story = {
  parameters: { config: withClosing({ justifies: [], obsRules: [], reportOnly: false, nextMaxDate: 30 }, { hasNextContact: true }) },
};

/** 'Encerrar sem aviso': the same form under its own title. */
export const NoMessage: Story = { args: { noMessage: true }, parameters: WithJustifies.parameters };

/** 'Encerrar com pesquisa NPS': the same form; the customer then gets the survey. */
export const WithNps: Story = { args: { research: 'nps' }, parameters: WithJustifies.parameters };
