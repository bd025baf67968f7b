import { describe, expect, it } from 'vitest';
import {
  axisMax, chartCsv, chartCsvFileName, chipLabels, csatClass, csatScore, heatmapLabel, normalizeRange, npsClass, npsScore, periodOf, surveyBreakdown,
} from './dashboard';

describe('dashboard rules (seed 002 §4, §5, §9)', () => {
  it('classifies NPS answers on both scales and scores promoters minus detractors, rounded', () => {
    expect([0, 6, 7, 8, 9, 10].map((v) => npsClass(v))).toEqual(['detractor', 'detractor', 'passive', 'passive', 'promoter', 'promoter']);
    expect([1, 3, 4, 5].map((v) => npsClass(v, true))).toEqual(['detractor', 'detractor', 'passive', 'promoter']);
    // 3 promoters, 1 passive, 2 detractors of 6: 50% − 33.3% = 16.7 → 17.
    const b = surveyBreakdown({ '10': 2, '9': 1, '8': 1, '3': 1, '6': 1 }, (v) => npsClass(v));
    expect(b).toEqual({ total: 6, detractors: 2, passives: 1, promoters: 3 });
    expect(npsScore(b)).toBe(17);
    expect(npsScore({ total: 0, detractors: 0, passives: 0, promoters: 0 })).toBe(0);
  });

  it('classifies CSAT answers as the seed table says and scores the promoters share with two decimals', () => {
    expect([1, 2, 3, 4, 5].map((v) => csatClass(v))).toEqual(['detractor', null, 'passive', 'promoter', 'promoter']);
    expect([4, 5, 6, 7, 10].map((v) => csatClass(v, true))).toEqual(['detractor', 'passive', 'passive', 'promoter', 'promoter']);
    expect(csatScore(surveyBreakdown({ '5': 1, '4': 1, '1': 1 }, (v) => csatClass(v)))).toBe(66.67);
    expect(csatScore(surveyBreakdown({ '5': 1, '1': 1 }, (v) => csatClass(v)))).toBe(50);
  });

  it('reorders swapped ranges, ends them yesterday at latest and keeps them within 90 days', () => {
    expect(normalizeRange('2026-01-10', '2026-01-01', '2026-02-01')).toEqual(['2026-01-01', '2026-01-10']);
    expect(normalizeRange('2026-01-20', '2026-03-01', '2026-02-01')).toEqual(['2026-01-20', '2026-01-31']);
    expect(normalizeRange('2025-01-01', '2026-01-31', '2026-02-01')).toEqual(['2025-11-02', '2026-01-31']);
    expect(normalizeRange('2026-02-01', '2026-02-05', '2026-02-01')).toBeNull();
    expect(periodOf({ lastDays: 7, range: null }, '2026-01-08')).toEqual({ from: '2026-01-01', to: '2026-01-07' });
  });

  it('labels chips, heatmap buckets and axes as the seed says', () => {
    expect(chipLabels(['A', 'B', 'C'])).toEqual(['A', 'B', 'C']);
    expect(chipLabels(['A', 'B', 'C', 'D', 'E'])).toEqual(['A', 'B', 'C', '(+2 outro(s))']);
    expect(chipLabels(['A', 'B', 'C'], 'legend')).toEqual(['A', 'B', '(+1 outros)']);
    expect(heatmapLabel(0)).toBe('0h-1h');
    expect(heatmapLabel(23)).toBe('23h-24h');
    expect(axisMax([3, 7, 5])).toBe(9);
    expect(axisMax([])).toBe(10);
    expect(axisMax([0])).toBe(10);
  });

  it('writes chart CSV with semicolons, quoting and formula escaping, named by host, title and period', () => {
    expect(chartCsv(['Dia', 'Agente; nome', 'Total'], [['05/01/2026', '=cmd', 3]])).toBe('Dia;"Agente; nome";Total\r\n05/01/2026;\'=cmd;3\r\n');
    expect(chartCsvFileName('acme.test', 'Atendimentos por dia', '2026-01-01', '2026-01-07')).toBe('acme.test - Atendimentos por dia - 01-01-2026 a 07-01-2026.csv');
  });
});
