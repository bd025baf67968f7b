import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import { recordedCalls } from '../../stories/fakeApi';
import * as stories from './SubCollectionExport.stories';

const { WithExporter, WithoutExporter } = composeStories(stories);

describe('SubCollectionExportDialog', () => {
  it("checks period, type and timezone with the seed's messages, then requests the e-mailed export", async () => {
    const user = userEvent.setup();
    render(<WithExporter />);
    await screen.findByText('Agente Um', {}, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: messages.registers.subCollectionExport }));
    const dialog = await screen.findByRole('dialog', { name: messages.registers.subCollectionTitle });
    const start = within(dialog).getByRole('textbox', { name: messages.registers.exportPeriodStart });
    const end = within(dialog).getByRole('textbox', { name: messages.registers.exportPeriodEnd });
    await user.clear(start);
    await user.type(start, '01012026');
    await user.clear(end);
    await user.type(end, '01062026');
    await user.click(within(dialog).getByRole('button', { name: messages.registers.exportSend }));
    expect(await within(dialog).findByText(messages.validation.exportPeriod90)).toBeTruthy();
    expect(recordedCalls().some((c) => c.path.includes('extractSubCollection'))).toBe(false);

    await user.clear(end);
    await user.type(end, '15022026');
    await user.click(within(dialog).getByRole('button', { name: messages.registers.exportSend }));
    expect(await screen.findByText(messages.table.exportRequested)).toBeTruthy();
    const call = recordedCalls().find((c) => c.path.startsWith('/api/agents/extractSubCollection'))!;
    expect(call.path).toBe('/api/agents/extractSubCollection?subCollection=status');
    expect(call.body).toMatchObject({ type: 'csv', timezone: 'local', period: '2026-01-01~2026-02-15', recipient: 'admin@acme.test' });
  });

  it('is not offered without the tenant claim enableAgentStatusExporter', async () => {
    render(<WithoutExporter />);
    await screen.findByText('Agente Um', {}, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: messages.registers.subCollectionExport })).toBeNull();
  });
});
