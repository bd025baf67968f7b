import type { Meta, StoryObj } from '@storybook/react';
import { DemoBanner } from './DemoBanner';
import { withShell } from '../stories/StoryShell';

const meta = {
  title: 'Moldura/Aviso de base de demonstração',
  component: DemoBanner,
  decorators: [withShell],
  args: { show: true },
} satisfies Meta<typeof DemoBanner>;

export default meta;
type Story = StoryObj<typeof meta>;

/** demoDatabase on. */
export const Shown: Story = {};

/** demoDatabase off: nothing. */
export const Hidden: Story = { args: { show: false } };
