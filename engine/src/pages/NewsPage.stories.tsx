import type { Meta, StoryObj } from '@storybook/react';
import { NewsPage } from './NewsPage';
import { withShell } from '../stories/StoryShell';

const meta = {
  title: 'Páginas/Novidades',
  component: NewsPage,
  decorators: [withShell],
  parameters: { shell: { path: '/novidades' } },
} satisfies Meta<typeof NewsPage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The three blocks, without videos (none configured). */
export const Default: Story = {};

/** The second block has a video. */
export const WithVideo: Story = { args: { videos: [null, 'data:video/mp4;base64,AAAA', null] } };
