import { describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { messages } from '@atendimento/schemas';
import * as stories from './ChartCard.stories';

const { Bars, FewChats, Lines, Nps, Heatmap, NarrowHeatmap, AllAgentsNote, NoLabels, Flows, FlowResults, FlowsEmpty } = composeStories(stories);
const text = messages.dashboard;

describe('ChartCard', () => {
  it('downloads the chart as a semicolon CSV named by host, title and period', () => {
    const download = vi.fn();
    render(<Bars download={download} />);
    fireEvent.click(screen.getByRole('button', { name: `${text.downloadCsv}: ${text.chartAgentsRooms}` }));
    expect(download).toHaveBeenCalledTimes(1);
    const [name, csv] = download.mock.calls[0]!;
    expect(name).toBe('acme.test - Atendimentos por agente - 01-01-2026 a 07-01-2026.csv');
    const lines = (csv as string).trim().split('\r\n');
    expect(lines[0]).toBe('Data;Ana Souza;Bia Lima;Caio Reis');
    expect(lines[1]).toBe('01/01/2026;5;5;6');
    expect(lines).toHaveLength(8);
  });

  it('draws bars or lines with the legend where chosen, and the NPS groups in the seed colours', () => {
    const { container, unmount } = render(<Lines />);
    expect(container.querySelectorAll('path').length).toBeGreaterThan(0);
    expect(screen.getByText('Ana Souza')).toBeTruthy();
    unmount();
    const nps = render(<Nps />);
    const fills = [...nps.container.querySelectorAll('path, rect')].map((e) => (e.getAttribute('style') ?? '') + (e.getAttribute('fill') ?? ''));
    // jsdom serialises a style attribute's colour as rgb(); Victory's fill attribute stays hex.
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
    for (const color of ['#c73c35', '#f2b000', '#01b882']) expect(fills.some((f) => f.includes(color) || f.includes(rgb(color)))).toBe(true);
    nps.unmount();
    render(<Heatmap />);
    expect(screen.getByText('9h-10h')).toBeTruthy();
  });

  it('puts a value over each hour only where the card leaves room for it; narrow, every other hour on the axis', () => {
    const cardAt = (width: number) => {
      // jsdom has no layout: the card's measured width comes from a stubbed ResizeObserver.
      vi.stubGlobal('ResizeObserver', class {
        constructor(private cb: ResizeObserverCallback) {}
        observe() { this.cb([{ contentRect: { width } } as ResizeObserverEntry], this as unknown as ResizeObserver); }
        disconnect() {}
      });
      const view = render(width > 600 ? <Heatmap /> : <NarrowHeatmap />);
      const texts = [...view.container.querySelectorAll('svg text')].map((t) => t.textContent ?? '').filter(Boolean);
      view.unmount();
      vi.unstubAllGlobals();
      return texts;
    };
    const wide = cardAt(1400);
    const narrow = cardAt(300);
    const hours = wide.filter((t) => /^\d+h-\d+h$/.test(t));
    expect(hours).toHaveLength(24);
    // Wide: 24 hour labels plus a value over each non-empty hour; narrow: neither all hours nor values.
    const filled = Heatmap.args.chart!.series[0]!.values.filter((v) => v !== 0).length;
    expect(filled).toBeGreaterThan(5);
    const narrowHours = narrow.filter((t) => /^\d+h-\d+h$/.test(t)).length;
    expect(wide.length - narrow.length).toBe(filled + 24 - narrowHours);
    expect(narrow.filter((t) => /^\d+h-\d+h$/.test(t)).length).toBeLessThan(24);
  });

  it('labels a count axis with whole numbers only (no "0,5 atendimento")', () => {
    const { container } = render(<FewChats />);
    const labels = [...container.querySelectorAll('text')].map((t) => t.textContent ?? '').filter((t) => /^\d+(,\d+)?$/.test(t));
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.filter((l) => l.includes(','))).toEqual([]);
  });

  it('says under the title when a chart shows every agent although agents are chosen', () => {
    render(<AllAgentsNote />);
    expect(screen.getByRole('figure', { name: text.chartDepartmentRooms })).toBeTruthy();
    expect(screen.getByText(text.notByAgent)).toBeTruthy();
    render(<Bars />);
    expect(screen.getAllByText(text.notByAgent)).toHaveLength(1);
  });

  it("shows an empty chart's state and logs 'Grafico sem labels'", () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    render(<NoLabels />);
    expect(screen.getByText(text.empty)).toBeTruthy();
    expect(info).toHaveBeenCalledWith(text.noLabels, 'tags');
    info.mockRestore();
  });

  it('downloads the flow charts as CSV: one row per flow or result value', () => {
    const download = vi.fn();
    const flows = render(<Flows download={download} />);
    fireEvent.click(screen.getByRole('button', { name: `${text.downloadCsv}: ${text.chartFlows}` }));
    expect(download.mock.calls[0]![0]).toBe('acme.test - Fluxos - 01-01-2026 a 07-01-2026.csv');
    expect(download.mock.calls[0]![1]).toBe('Item;Iniciados;Concluídos;Resultado esperado\r\nTriagem inicial;62;45;38\r\nSegunda via de boleto;24;21;0\r\n');
    flows.unmount();
    render(<FlowResults download={download} />);
    fireEvent.click(screen.getByRole('button', { name: `${text.downloadCsv}: Resultados: motivo` }));
    expect(download.mock.calls[1]![1]).toBe('Item;motivo\r\nFinanceiro;24\r\nSuporte;13\r\nComercial;8\r\n');
  });

  it("says 'Nenhum fluxo executado no período.' on the flows chart of a period without runs", () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    render(<FlowsEmpty />);
    expect(screen.getByText(text.flowsEmpty)).toBeTruthy();
    expect(screen.queryByText(text.empty)).toBeNull();
    info.mockRestore();
  });
});
