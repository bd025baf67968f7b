import type { Meta, StoryObj } from '@storybook/react';
import { InteractiveDialog } from './InteractiveDialog';
import { StoryConsole, recordingApi } from '../../fixtures/StoryConsole';

export const interactiveApi = () => recordingApi({ 'POST /api/rooms/room-2/message/interactive': { meta: { ok: true, created: true }, data: { id: 'm-int' } } });

const meta: Meta<typeof InteractiveDialog> = {
  title: 'Console/WhatsApp/InteractiveDialog',
  component: InteractiveDialog,
  args: { open: true, roomId: 'room-2', onClose: () => undefined },
  decorators: [(Story, ctx) => <StoryConsole api={ctx.parameters.api ?? interactiveApi()}><Story /></StoryConsole>],
};
export default meta;
type Story = StoryObj<typeof InteractiveDialog>;

/** Buttons (up to 3) or a list (up to 10 options), with a preview in the chat's own renderer. */
export const Compose: Story = {};
