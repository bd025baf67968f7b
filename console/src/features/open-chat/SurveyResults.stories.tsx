import type { Meta, StoryObj } from '@storybook/react';
import { SurveyResults } from './SurveyResults';
import { StoryConsole } from '../../fixtures/StoryConsole';
import { adminUser, agentUser } from '../../fixtures/chatFixtures';

const answered = {
  nps: { value: 9, reason: 'ótimo atendimento', answerdAt: '2026-11-20T14:05:00.000Z' },
  csat: { value: 4, reason: null, answerdAt: '2026-11-20T14:06:00.000Z' },
};

const meta: Meta<typeof SurveyResults> = {
  title: 'Console/SurveyResults',
  component: SurveyResults,
  args: { room: answered },
  decorators: [(Story, ctx) => (
    <StoryConsole user={ctx.parameters.user ?? adminUser}>
      <Story />
    </StoryConsole>
  )],
};
export default meta;
type Story = StoryObj<typeof SurveyResults>;

/** An admin reads both answers. */
export const Admin: Story = {};

/** A plain agent sees nothing. */
export const PlainAgent: Story = { parameters: { user: agentUser } };

/** An agent with showNPS only sees the NPS answer. */
export const ShowNpsOnly: Story = { parameters: { user: { ...agentUser, claims: { showNPS: true } } } };
