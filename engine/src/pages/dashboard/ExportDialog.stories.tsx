import type { Meta, StoryObj } from '@storybook/react';
import { ExportDialog } from './ExportDialog';

const meta = {
  title: 'Dashboard/ExportDialog',
  component: ExportDialog,
  args: { open: true, email: 'supervisor@acme.test', today: '2026-01-08', askResearch: true, askResearchCsat: false, localZone: 'America/Sao_Paulo', onSubmit: async () => {}, onClose: () => {} },
} satisfies Meta<typeof ExportDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The dialog as it opens: CSV and UTC chosen, the period and the reference date to fill. */
export const Default: Story = {};

/** Without surveys the only reference date is the creation date. */
export const NoSurveys: Story = { args: { askResearch: false } };
