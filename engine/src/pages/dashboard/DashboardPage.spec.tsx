import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { messages } from '@atendimento/schemas';
import * as stories from './DashboardPage.stories';
import { recordedCalls } from '../../stories/fakeApi';

const { Default, Supervisor, ExportAdminOnly, LikertScales, FlowCharts, Empty, Loading, Failed } = composeStories(stories);
const text = messages.dashboard;

const kpi = (id: string) => document.querySelector(`[data-kpi-value="${id}"]`)?.textContent;

describe('DashboardPage', () => {
  it("shows the KPI row with the period's totals and the NPS/CSAT scores in the seed's colours", async () => {
    render(<Default />);
    await waitFor(() => expect(kpi('rooms')).toBe('135'));
    expect(kpi('nps')).toBe('25');
    expect(kpi('csat')).toBe('66,67%');
    const nps = document.querySelector('[data-kpi="nps"]') as HTMLElement;
    expect([...nps.querySelectorAll('[data-color]')].map((e) => e.getAttribute('data-color'))).toEqual(['#c73c35', '#f2b000', '#01b882']);
    expect(within(nps).getByText('Detratores: 7')).toBeTruthy();
    expect(screen.getByRole('figure', { name: text.chartHeatmap })).toBeTruthy();
    expect(screen.getByRole('figure', { name: text.chartNps })).toBeTruthy();
    // The heatmap's buckets are labelled 'Nh-(N+1)h'.
    expect(screen.getAllByText('9h-10h').length).toBeGreaterThan(0);
  });

  it('asks the server again when the period changes, and clears back to the defaults', async () => {
    render(<Default />);
    await waitFor(() => expect(kpi('rooms')).toBe('135'));
    expect(recordedCalls().some((c) => c.path === '/api/dashboard/reports?days=7')).toBe(true);
    fireEvent.mouseDown(within(screen.getByRole('toolbar')).getAllByRole('combobox')[0]!);
    fireEvent.click(await screen.findByRole('option', { name: 'Últimos 30 dias' }));
    await waitFor(() => expect(recordedCalls().some((c) => c.path === '/api/dashboard/reports?days=30')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: text.line }));
    expect(screen.getByRole('button', { name: text.line }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: text.clearFilters }));
    expect(screen.getByRole('button', { name: text.bar }).getAttribute('aria-pressed')).toBe('true');
    expect(document.querySelector('[data-columns]')?.getAttribute('data-columns')).toBe('3');
  });

  it('shows a supervisor only their department, and hides the export with exportAdminOnly', async () => {
    render(<Supervisor />);
    await waitFor(() => expect(kpi('rooms')).toBe('82'));
    expect(screen.getByRole('button', { name: text.exportData })).toBeTruthy();
    cleanup();
    render(<ExportAdminOnly />);
    await waitFor(() => expect(kpi('rooms')).toBe('82'));
    expect(screen.queryByRole('button', { name: text.exportData })).toBeNull();
  });

  it('scores NPS on 1–5 and CSAT on 0–10 with the likert flags', async () => {
    render(<LikertScales />);
    await waitFor(() => expect(kpi('rooms')).toBe('135'));
    // likertScale5: answers 10, 8 and 6 are above the 1–5 scale, none is a promoter (exactly 5) nor a detractor (< 4).
    expect(kpi('nps')).toBe('0');
    // likertScale10: 5 is passive, 4 and 3 are detractors (< 5): no promoter.
    expect(kpi('csat')).toBe('0%');
  });

  it("draws the flow charts from the tenant's flow claims, and not without them", async () => {
    render(<FlowCharts />);
    const flows = await screen.findByRole('figure', { name: text.chartFlows });
    expect(within(flows).getByText('Triagem inicial')).toBeTruthy();
    expect(within(flows).getByText(text.flowExpected)).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Resultados: motivo' })).toBeTruthy();
    cleanup();
    render(<Default />);
    await screen.findByRole('figure', { name: text.chartHeatmap });
    expect(screen.queryByRole('figure', { name: text.chartFlows })).toBeNull();
  });

  it('says what is happening: loading, empty period, failure', async () => {
    render(<Loading />);
    expect(screen.getByRole('status').textContent).toContain(text.loading);
    cleanup();
    render(<Empty />);
    await waitFor(() => expect(screen.getAllByText(text.empty).length).toBeGreaterThan(0));
    cleanup();
    render(<Failed />);
    await waitFor(() => expect(screen.getByText(new RegExp(text.failed))).toBeTruthy());
  });

  it('validates the export dialog with the four seed messages, then requests the export', async () => {
    render(<Default />);
    await waitFor(() => expect(kpi('rooms')).toBe('135'));
    fireEvent.click(screen.getByRole('button', { name: text.exportData }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: text.exportConfirm }));
    expect(within(dialog).getByText(messages.validation.exportPeriod)).toBeTruthy();
    expect(within(dialog).getByText(messages.validation.exportReferenceDate)).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('export-from'), { target: { value: '2026-01-01' } });
    fireEvent.change(within(dialog).getByTestId('export-to'), { target: { value: '2026-01-05' } });
    fireEvent.change(within(dialog).getByTestId('export-reference'), { target: { value: 'createdAt' } });
    fireEvent.click(within(dialog).getByRole('button', { name: text.exportConfirm }));
    await waitFor(() => expect(recordedCalls().find((c) => c.path === '/api/dashboard/export')).toBeTruthy());
    expect(recordedCalls().find((c) => c.path === '/api/dashboard/export')!.body).toMatchObject({ period: ['2026-01-01', '2026-01-05'], fileType: 'csv', timezone: 'UTC', reference: 'createdAt' });
    // The job's progress follows on the page until the file is sent.
    expect(await screen.findByText('Arquivo de exportação enviado para admin@acme.test (37 atendimento(s)).')).toBeTruthy();
  });
});
