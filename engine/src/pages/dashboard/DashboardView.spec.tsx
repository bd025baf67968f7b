import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { messages } from '@atendimento/schemas';
import * as stories from './DashboardView.stories';

const { Narrow, Phone, WideLines, ManyAgents, OneAgent, Flows, FlowsEmpty } = composeStories(stories);
const text = messages.dashboard;

describe('DashboardView', () => {
  it('lays out narrow below 2400 px and wide above, with the chosen number of columns', () => {
    const narrow = render(<Narrow />);
    expect(narrow.container.querySelector('[data-layout]')?.getAttribute('data-layout')).toBe('small');
    expect(narrow.container.querySelector('[data-columns]')?.getAttribute('data-columns')).toBe('3');
    narrow.unmount();
    const wide = render(<WideLines />);
    expect(wide.container.querySelector('[data-layout]')?.getAttribute('data-layout')).toBe('wide');
    expect(wide.container.querySelector('[data-columns]')?.getAttribute('data-columns')).toBe('4');
    expect(screen.getByRole('button', { name: text.line }).getAttribute('aria-pressed')).toBe('true');
  });

  it('on a phone draws one chart per row and lets the filter bar scroll away; wider, the bar stays pinned', () => {
    const phone = render(<Phone />);
    expect(phone.container.querySelector('[data-columns]')?.getAttribute('data-columns')).toBe('1');
    const toolbar = screen.getByRole('toolbar');
    expect(getComputedStyle(toolbar).position).toBe('static');
    // Columns and legend side have no effect on a phone: their controls wait for a wider screen.
    expect(within(toolbar).queryByLabelText(text.columns)).toBeNull();
    expect(within(toolbar).queryByRole('group', { name: text.legend })).toBeNull();
    phone.unmount();
    render(<Narrow />);
    expect(getComputedStyle(screen.getByRole('toolbar')).position).toBe('sticky');
    expect(within(screen.getByRole('toolbar')).getByRole('group', { name: text.legend })).toBeTruthy();
  });

  it("shows three agent chips then '(+N outro(s))', and choosing departments clears the agents", () => {
    render(<ManyAgents />);
    const toolbar = screen.getByRole('toolbar');
    expect(within(toolbar).getByText('(+1 outro(s))')).toBeTruthy();
    expect(within(toolbar).getByText('Ana Souza')).toBeTruthy();
    fireEvent.mouseDown(screen.getByTestId('filter-departments'));
    fireEvent.click(screen.getByRole('option', { name: 'Vendas' }));
    expect(within(toolbar).queryByText('Ana Souza')).toBeNull();
    expect(within(toolbar).getByText('Vendas')).toBeTruthy();
  });

  it("with an agent chosen the cards are that agent's figures; without, the period's totals", () => {
    const kpi = (c: HTMLElement, id: string) => c.querySelector(`[data-kpi-value="${id}"]`)?.textContent;
    const report = OneAgent.args!.report!;
    const caio = report.days.reduce((s, d) => s + d.roomDate.agentsRooms.reduce((n, a) => n + a.count, 0), 0);
    const one = render(<OneAgent />);
    expect(kpi(one.container, 'rooms')).toBe(String(caio));
    expect(kpi(one.container, 'contacts')).toBe(String(caio));
    // Caio's TMA is the fixture's third agent's: 600 + 2 × 120 s = 14 min.
    expect(kpi(one.container, 'tma')).toBe('14 min');
    expect(kpi(one.container, 'transfers')).toBe('0');
    one.unmount();
    const all = render(<Narrow />);
    expect(kpi(all.container, 'rooms')).toBe(String(report.days.reduce((s, d) => s + d.roomDate.countRooms, 0)));
    expect(Number(kpi(all.container, 'rooms'))).toBeGreaterThan(caio);
  });

  it('chooses a range ending yesterday and reorders swapped dates', () => {
    render(<Narrow />);
    fireEvent.mouseDown(within(screen.getByRole('toolbar')).getAllByRole('combobox')[0]!);
    fireEvent.click(screen.getByRole('option', { name: text.range }));
    expect((screen.getByTestId('range-to') as HTMLInputElement).value).toBe('2026-01-07');
    // A swapped pair is reordered.
    fireEvent.change(screen.getByTestId('range-from'), { target: { value: '2026-01-07' } });
    fireEvent.change(screen.getByTestId('range-to'), { target: { value: '2026-01-03' } });
    expect((screen.getByTestId('range-from') as HTMLInputElement).value).toBe('2026-01-03');
  });

  it("shows the 'Fluxos' chart and each flow's results when the tenant's flow flags are on", () => {
    render(<Flows />);
    const flows = screen.getByRole('figure', { name: text.chartFlows });
    expect(within(flows).getByRole('heading', { name: text.chartFlows })).toBeTruthy();
    expect(within(flows).getByText('Triagem inicial')).toBeTruthy();
    expect(within(flows).getByText(text.flowExpected)).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Triagem inicial — motivo' })).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Segunda via de boleto — resolvido' })).toBeTruthy();
  });

  it("keeps the 'Fluxos' chart in a period without flow runs and says so", () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    render(<FlowsEmpty />);
    expect(within(screen.getByRole('figure', { name: text.chartFlows })).getByText(text.flowsEmpty)).toBeTruthy();
    expect(screen.queryByRole('figure', { name: /motivo/ })).toBeNull();
    info.mockRestore();
  });

  it('leaves the flow charts out without the flags', () => {
    render(<Narrow />);
    expect(screen.queryByRole('figure', { name: text.chartFlows })).toBeNull();
  });
});
