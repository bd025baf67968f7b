import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { messages } from '@atendimento/schemas';
import * as stories from './ExportDialog.stories';

const { Default, NoSurveys } = composeStories(stories);
const text = messages.dashboard;

describe('ExportDialog', () => {
  it('shows the seed validations, reorders a swapped period and sends the request', async () => {
    const onSubmit = vi.fn(async () => {});
    const onClose = vi.fn();
    render(<Default onSubmit={onSubmit} onClose={onClose} />);
    expect(screen.getByText('O arquivo gerado será enviado por email para supervisor@acme.test; Isso pode levar alguns minutos a depender do período selecionado')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: text.exportConfirm }));
    expect(screen.getByText(messages.validation.exportPeriod)).toBeTruthy();
    expect(screen.getByText(messages.validation.exportReferenceDate)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('export-from'), { target: { value: '2026-01-07' } });
    fireEvent.change(screen.getByTestId('export-to'), { target: { value: '2026-01-02' } });
    fireEvent.change(screen.getByTestId('export-reference'), { target: { value: 'nps' } });
    fireEvent.click(screen.getByRole('button', { name: text.exportConfirm }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ period: ['2026-01-02', '2026-01-07'], fileType: 'csv', timezone: 'UTC', timezoneOffset: 0, reference: 'nps' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('refuses a period over 90 days with the seed text instead of shortening it, and offers the second date within 90 days of the first', async () => {
    const onSubmit = vi.fn(async () => {});
    render(<Default onSubmit={onSubmit} onClose={() => {}} />);
    fireEvent.change(screen.getByTestId('export-from'), { target: { value: '2025-06-01' } });
    // The other date is offered within 90 days of the chosen one.
    expect([screen.getByTestId('export-to').getAttribute('min'), screen.getByTestId('export-to').getAttribute('max')]).toEqual(['2025-03-03', '2025-08-30']);
    fireEvent.change(screen.getByTestId('export-to'), { target: { value: '2025-11-29' } });
    fireEvent.change(screen.getByTestId('export-reference'), { target: { value: 'nps' } });
    fireEvent.click(screen.getByRole('button', { name: text.exportConfirm }));
    expect(await screen.findByText(messages.validation.exportPeriod90)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('export-to'), { target: { value: '2025-08-30' } });
    fireEvent.click(screen.getByRole('button', { name: text.exportConfirm }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ period: ['2025-06-01', '2025-08-30'] })));
  });

  it('cancel resets and closes; without surveys only the creation date is offered', () => {
    const onClose = vi.fn();
    render(<NoSurveys onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: text.exportCancel }));
    expect(onClose).toHaveBeenCalled();
    fireEvent.mouseDown(screen.getAllByRole('combobox').at(-1)!);
    expect(screen.queryByRole('option', { name: text.exportReferenceNps })).toBeNull();
    expect(screen.getByRole('option', { name: text.exportReferenceCreated })).toBeTruthy();
  });
});
