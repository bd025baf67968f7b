import type { Meta, StoryObj } from '@storybook/react';
import { FooterCredit } from './FooterCredit';
import { withShell } from '../stories/StoryShell';

const meta = {
  title: 'Moldura/Crédito no rodapé',
  component: FooterCredit,
  decorators: [withShell],
  args: { footer: { name: 'Acme Sistemas', link: 'https://acme.example' } },
} satisfies Meta<typeof FooterCredit>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Name and external link from the tenant configuration. */
export const WithLink: Story = {};

/** A name without a link. */
export const NameOnly: Story = { args: { footer: { name: 'Acme Sistemas', link: '' } } };

/** No footer configured: nothing. */
export const None: Story = { args: { footer: null } };
