import type { Meta, StoryObj } from '@storybook/react';
import { AvatarCropDialog } from './AvatarCropDialog';
import { withShell } from '../stories/StoryShell';
import { SAMPLE_PHOTO } from '../stories/fixtures';

const meta = {
  title: 'Páginas/Recorte da foto',
  component: AvatarCropDialog,
  decorators: [withShell],
  args: { image: SAMPLE_PHOTO, onCancel: () => undefined, onCropped: () => undefined },
  parameters: { shell: { path: '/profile' } },
} satisfies Meta<typeof AvatarCropDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The photo just picked on the profile: drag and zoom, then Salvar sends a 512×512 JPEG. */
export const Default: Story = {};

/** Without a picked photo the dialog is closed. */
export const Closed: Story = { args: { image: null } };
