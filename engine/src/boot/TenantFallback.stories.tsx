import type { Meta, StoryObj } from '@storybook/react';
import { TenantFallback } from './TenantFallback';
import { withShell } from '../stories/StoryShell';

const meta = {
  title: 'Início/Telas de falha',
  component: TenantFallback,
  decorators: [withShell],
  args: { kind: 'blocked' },
} satisfies Meta<typeof TenantFallback>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The tenant is inactive (the configuration answered 403). */
export const Blocked: Story = {};

/** The configuration could not be fetched after 5 attempts. */
export const Unreachable: Story = { args: { kind: 'unreachable' } };
