import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import FileDownload from '@mui/icons-material/FileDownload';
import { VictoryAxis, VictoryBar, VictoryChart, VictoryGroup, VictoryLegend, VictoryLine, VictoryScatter } from 'victory';
import { axisMax, chartCsv, chartCsvFileName, chipLabels, messages, showLineLabels } from '@atendimento/schemas';
import type { ChartModel } from './dashboardCharts';
import { saveText } from '../../ui/save-file';

const text = messages.dashboard;
const PALETTE = ['#1976d2', '#01b882', '#f2b000', '#c73c35', '#7b1fa2', '#00838f', '#ef6c00', '#5d4037', '#455a64', '#c2185b'];

/** A number on an axis or a bar as pt-BR reads it: '1.000', '2,5' (victory's own is '1,000' and '2.0'). */
const tick = (value: number) => value.toLocaleString('pt-BR', { maximumFractionDigits: 1 });
/** A chart of counts (every value whole) labels only whole ticks: '0,5 atendimento' means nothing. */
const countTick = (value: number) => (Number.isInteger(value) ? tick(value) : '');

/**
 * The width the chart is drawn at: its card's, measured, so the SVG is not a fixed 560 px drawing
 * scaled down into a narrower card (at three columns on 1280 px, text came out ~6 px tall). Before
 * the first measure (and where ResizeObserver does not exist, jsdom) 560.
 */
function useDrawnWidth(): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(560);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.round(entry?.contentRect.width ?? 0);
      if (next > 0) setWidth((old) => (Math.abs(old - next) > 1 ? next : old));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** Saves a text as a file (the browser's download); injectable for tests. */
export type Download = (fileName: string, content: string) => void;

export const browserDownload: Download = (fileName, content) => saveText(fileName, content);

export interface ChartCardProps {
  chart: ChartModel;
  chartType: 'bar' | 'line';
  legend: 'top' | 'right';
  height: number;
  /** Period and host for the CSV's file name (seed 002 §7). */
  period: { from: string; to: string };
  host: string;
  download?: Download;
}

/**
 * One chart of the dashboard (victory): bars or lines, legend on top or at the right (two
 * names then '(+N outros)' beyond six), y axis 0 to 1.2 × the maximum, a CSV download.
 * A chart without labels shows that the period has no data (or the chart's own empty text)
 * and logs 'Grafico sem labels'.
 */
export function ChartCard({ chart, chartType, legend, height, period, host, download = browserDownload }: ChartCardProps) {
  const hasLabels = chart.categories.length > 0;
  const max = useMemo(() => axisMax(chart.series.flatMap((s) => s.values)), [chart]);
  const hasData = chart.series.some((s) => s.values.some((v) => v !== 0));
  const counts = chart.series.every((s) => s.values.every(Number.isInteger));
  if (!hasLabels) console.info(text.noLabels, chart.id);
  const colored = chart.series.map((s, i) => ({ ...s, color: s.color ?? PALETTE[i % PALETTE.length]! }));
  // Up to 6 names fit the legend; beyond, two then '(+N outros)' (seed 002 §9 legend chips).
  const legendNames = colored.length > 6 ? chipLabels(colored.map((s) => s.name), 'legend') : colored.map((s) => s.name);
  const legendData = legendNames.map((name, i) => ({ name, symbol: { fill: colored[i]?.color ?? '#9e9e9e' } }));
  const legendRight = legend === 'right';
  const [box, width] = useDrawnWidth();
  // Labels turn when they would not fit side by side (~64 px each: '23/11/2026' at 10 px).
  const plotWidth = width - 52 - (legendRight ? 150 : 16);
  const slot = plotWidth / Math.max(1, chart.categories.length);
  const turned = chart.categories.length > 8 || slot < 64;
  const padding = { top: legendRight ? 16 : 44, bottom: chart.kind === 'category' || turned ? 70 : 48, left: 52, right: legendRight ? 150 : 16 };
  // A value over each point needs ~24 px of its own ('1.234' at 10 px); narrower, the values ran
  // into each other (24 hours at three columns), so the axis and the CSV carry them instead.
  const roomy = slot >= 24;
  const labelsOn = roomy && (chartType === 'bar' ? colored.length === 1 && chart.categories.length <= 31 : showLineLabels(colored.length) && chart.categories.length <= 31);
  // Turned labels at 10 px need ~14 px apart; narrower, victory drops every other one.
  const thinTicks = chart.categories.length > 31 || slot < 14;

  function onDownload() {
    const header = [chart.kind === 'time' ? 'Data' : 'Item', ...colored.map((s) => s.name)];
    const rows = chart.categories.map((c, i) => [c, ...colored.map((s) => s.values[i] ?? 0)]);
    download(chartCsvFileName(host, chart.title, period.from, period.to), chartCsv(header, rows));
  }

  return (
    <Paper ref={box} variant="outlined" sx={{ p: 1.5, display: 'flex', flexDirection: 'column', minWidth: 0 }} data-chart={chart.id} role="figure" aria-label={chart.title}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography component="h3" variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
          {chart.title}
        </Typography>
        <Tooltip title={text.downloadCsv}>
          <span>
            <IconButton size="small" aria-label={`${text.downloadCsv}: ${chart.title}`} onClick={onDownload} disabled={!hasLabels}>
              <FileDownload fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
      {chart.note ? (
        <Typography variant="caption" color="text.secondary">
          {chart.note}
        </Typography>
      ) : null}
      {!hasLabels || !hasData ? (
        <Box sx={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Typography color="text.secondary">{chart.emptyText ?? text.empty}</Typography>
        </Box>
      ) : (
        <Box sx={{ height }}>
          <VictoryChart width={width} height={height} padding={padding} domain={{ y: [0, max] }} domainPadding={{ x: chartType === 'bar' ? 18 : 8 }}>
            <VictoryLegend
              x={legendRight ? width - padding.right + 8 : padding.left}
              y={legendRight ? 10 : 6}
              orientation={legendRight ? 'vertical' : 'horizontal'}
              gutter={12}
              style={{ labels: { fontSize: 11 } }}
              data={legendData}
            />
            <VictoryAxis
              tickValues={chart.categories.map((_, i) => i + 1)}
              tickFormat={chart.categories}
              style={{ tickLabels: { fontSize: 10, angle: turned ? -40 : 0, textAnchor: turned ? 'end' : 'middle' } }}
              fixLabelOverlap={thinTicks}
            />
            <VictoryAxis dependentAxis tickFormat={counts ? countTick : tick} style={{ tickLabels: { fontSize: 10 }, grid: { stroke: '#eeeeee' } }} />
            {chartType === 'bar' ? (
              <VictoryGroup offset={colored.length > 1 ? Math.max(4, Math.min(14, 300 / (chart.categories.length * colored.length))) : 0}>
                {colored.map((s) => (
                  <VictoryBar
                    key={s.name}
                    data={s.values.map((y, i) => ({ x: i + 1, y }))}
                    barWidth={colored.length > 1 ? undefined : Math.max(2, Math.min(28, slot * 0.7))}
                    labels={labelsOn ? ({ datum }: { datum: { y: number } }) => (datum.y ? tick(datum.y) : '') : undefined}
                    style={{ data: { fill: s.color }, labels: { fontSize: 10 } }}
                  />
                ))}
              </VictoryGroup>
            ) : (
              colored.flatMap((s) => [
                <VictoryLine key={`${s.name}-line`} data={s.values.map((y, i) => ({ x: i + 1, y }))} style={{ data: { stroke: s.color, strokeWidth: 2 } }} />,
                <VictoryScatter
                  key={`${s.name}-points`}
                  data={s.values.map((y, i) => ({ x: i + 1, y }))}
                  size={3}
                  style={{ data: { fill: s.color } }}
                  labels={labelsOn ? ({ datum }: { datum: { y: number } }) => (datum.y ? tick(datum.y) : '') : undefined}
                />,
              ])
            )}
          </VictoryChart>
        </Box>
      )}
    </Paper>
  );
}
