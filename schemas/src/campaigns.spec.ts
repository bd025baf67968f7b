import { describe, expect, it } from 'vitest';
import { campaignChatId, campaignStatusText, campaignWindowOpen, campaignWindowOver, normaliseCampaignChatId, renderTemplateText, templateParamCount } from './campaigns';

const SP = 'America/Sao_Paulo';
// 2026-01-05 is a Monday; São Paulo is UTC-3 (no daylight saving since 2019).
const at = (local: string) => new Date(`${local}-03:00`);

describe('campaign chat ids', () => {
  it('seed 000 §5: longer than 12 characters lose the fifth', () => {
    expect(normaliseCampaignChatId('5511987654321')).toBe('551187654321');
    expect(normaliseCampaignChatId('551187654321')).toBe('551187654321');
  });

  it('phones from the CSV: digits, default 55, Brazilian DDD and mobile rules, foreign numbers kept', () => {
    expect(campaignChatId('(11) 98765-4321')).toBe('551187654321');
    expect(campaignChatId('+55 11 98765-4321')).toBe('551187654321');
    expect(campaignChatId('1133334444')).toBe('551133334444');
    expect(campaignChatId('5511812345678')).toBeNull(); // 9 digits not starting with 9
    expect(campaignChatId('550187654321')).toBeNull(); // DDD 01
    expect(campaignChatId('123')).toBeNull();
    expect(campaignChatId('abc')).toBeNull();
    expect(campaignChatId('=1+2')).toBeNull();
    expect(campaignChatId('+1 415 555 0100')).toBe('14155550100');
  });
});

describe('status text (seed 000 §4)', () => {
  it('read, delivered, sent, the first error title (Portuguese first), else not sent', () => {
    expect(campaignStatusText({ sent: 'x', delivered: 'x', read: 'x' })).toBe('Lido');
    expect(campaignStatusText({ sent: 'x', delivered: 'x' })).toBe('Entregue');
    expect(campaignStatusText({ sent: 'x' })).toBe('Enviado');
    expect(campaignStatusText({ errors: [{ title: 'Undeliverable', titleptBR: 'Não entregue' }, { title: 'b' }] })).toBe('Erro: Não entregue');
    expect(campaignStatusText({ errors: [{ title: 'Undeliverable' }] })).toBe('Erro: Undeliverable');
    expect(campaignStatusText(null)).toBe('Não enviado');
  });
});

describe('send window in the tenant time zone', () => {
  it('hours, an overnight range, dates, commercial time and weekends', () => {
    expect(campaignWindowOpen({ startAt: '09:00', endAt: '18:00' }, at('2026-01-05T08:59'), SP)).toBe(false);
    expect(campaignWindowOpen({ startAt: '09:00', endAt: '18:00' }, at('2026-01-05T09:00'), SP)).toBe(true);
    expect(campaignWindowOpen({ startAt: '09:00', endAt: '18:00' }, at('2026-01-05T18:00'), SP)).toBe(false);
    expect(campaignWindowOpen({ startAt: '22:00', endAt: '02:00' }, at('2026-01-05T23:30'), SP)).toBe(true);
    expect(campaignWindowOpen({ startAt: '22:00', endAt: '02:00' }, at('2026-01-05T03:00'), SP)).toBe(false);
    expect(campaignWindowOpen({ startDate: '2026-01-06' }, at('2026-01-05T12:00'), SP)).toBe(false);
    expect(campaignWindowOpen({ endDate: '2026-01-05' }, at('2026-01-05T23:59'), SP)).toBe(true);
    expect(campaignWindowOver({ endDate: '2026-01-05' }, at('2026-01-06T00:00'), SP)).toBe(true);
    expect(campaignWindowOpen({ comercialTime: true }, at('2026-01-05T07:59'), SP)).toBe(false);
    expect(campaignWindowOpen({ comercialTime: true }, at('2026-01-05T08:00'), SP)).toBe(true);
    expect(campaignWindowOpen({ comercialTime: true }, at('2026-01-10T10:00'), SP)).toBe(false); // Saturday
    expect(campaignWindowOpen({ weekEnd: false }, at('2026-01-11T10:00'), SP)).toBe(false); // Sunday
    expect(campaignWindowOpen({ weekEnd: true }, at('2026-01-11T10:00'), SP)).toBe(true);
    // The same instant is another local day elsewhere.
    expect(campaignWindowOpen({ weekEnd: false }, new Date('2026-01-10T02:00:00Z'), SP)).toBe(true); // Friday 23:00 in São Paulo
    expect(campaignWindowOpen({ weekEnd: false }, new Date('2026-01-10T02:00:00Z'), 'UTC')).toBe(false);
  });
});

describe('template text', () => {
  it('counts distinct placeholders and fills them', () => {
    const components = [{ type: 'HEADER', format: 'TEXT', text: 'x' }, { type: 'BODY', text: 'Pedido {{1}} chega em {{2}} dias, {{1}}.' }];
    expect(templateParamCount(components)).toBe(2);
    expect(renderTemplateText(components, ['123', '5'])).toBe('Pedido 123 chega em 5 dias, 123.');
  });
});
