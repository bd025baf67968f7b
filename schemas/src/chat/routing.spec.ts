import { describe, expect, it } from 'vitest';
import { contingencyFor, isOpenAt, nextOpening, normaliseAutomaticRules, validateAutomaticRules, zonedInstant, type DaysWork } from './routing';

const weekdays = (slot: { startAt1: string; endAt1: string; startAt2?: string; endAt2?: string }): DaysWork => ({
  monday: { enable: true, ...slot }, tuesday: { enable: true, ...slot }, wednesday: { enable: true, ...slot }, thursday: { enable: true, ...slot }, friday: { enable: true, ...slot },
  saturday: { enable: false }, sunday: { enable: false },
});

describe('business hours (daysWork)', () => {
  const office = weekdays({ startAt1: '08:00', endAt1: '12:00', startAt2: '13:00', endAt2: '18:00' });
  // Monday 2026-01-05; São Paulo is UTC-3.
  const sp = (local: string) => new Date(`${local}-03:00`);

  it('both slots of a day, in the tenant time zone', () => {
    expect(isOpenAt(office, sp('2026-01-05T07:59'), 'America/Sao_Paulo')).toBe(false);
    expect(isOpenAt(office, sp('2026-01-05T08:00'), 'America/Sao_Paulo')).toBe(true);
    expect(isOpenAt(office, sp('2026-01-05T12:00'), 'America/Sao_Paulo')).toBe(false);
    expect(isOpenAt(office, sp('2026-01-05T12:59'), 'America/Sao_Paulo')).toBe(false);
    expect(isOpenAt(office, sp('2026-01-05T13:00'), 'America/Sao_Paulo')).toBe(true);
    expect(isOpenAt(office, sp('2026-01-05T17:59'), 'America/Sao_Paulo')).toBe(true);
    expect(isOpenAt(office, sp('2026-01-05T18:00'), 'America/Sao_Paulo')).toBe(false);
    // Saturday is not enabled.
    expect(isOpenAt(office, sp('2026-01-10T10:00'), 'America/Sao_Paulo')).toBe(false);
  });

  it('the same instant is open or closed depending on the time zone', () => {
    const instant = new Date('2026-01-05T11:30:00Z'); // 08:30 in São Paulo, 20:30 in Tokyo, 11:30 in UTC
    expect(isOpenAt(office, instant, 'America/Sao_Paulo')).toBe(true);
    expect(isOpenAt(office, instant, 'Asia/Tokyo')).toBe(false);
    expect(isOpenAt(office, instant, 'UTC')).toBe(true);
    // 12:30: open in São Paulo (09:30), the lunch gap in UTC.
    expect(isOpenAt(office, new Date('2026-01-05T12:30:00Z'), 'America/Sao_Paulo')).toBe(true);
    expect(isOpenAt(office, new Date('2026-01-05T12:30:00Z'), 'UTC')).toBe(false);
  });

  it('a slot ending at or before its start crosses midnight, into the next day', () => {
    const night: DaysWork = { friday: { enable: true, startAt1: '22:00', endAt1: '02:00', startAt2: '08:00', endAt2: '10:00' } };
    expect(isOpenAt(night, sp('2026-01-09T21:59'), 'America/Sao_Paulo')).toBe(false);
    expect(isOpenAt(night, sp('2026-01-09T23:30'), 'America/Sao_Paulo')).toBe(true);
    // Saturday 01:00 belongs to Friday's night slot although Saturday is not enabled.
    expect(isOpenAt(night, sp('2026-01-10T01:00'), 'America/Sao_Paulo')).toBe(true);
    expect(isOpenAt(night, sp('2026-01-10T02:00'), 'America/Sao_Paulo')).toBe(false);
    expect(isOpenAt(night, sp('2026-01-09T09:00'), 'America/Sao_Paulo')).toBe(true);
    // The crossing slot in another zone: 23:30 Friday in Lisbon (UTC+0 in January).
    expect(isOpenAt(night, new Date('2026-01-09T23:30:00Z'), 'Europe/Lisbon')).toBe(true);
    expect(isOpenAt(night, new Date('2026-01-09T23:30:00Z'), 'America/Sao_Paulo')).toBe(false);
  });

  it('next opening: the second slot, the next enabled day, over a weekend; null when never', () => {
    const tz = 'America/Sao_Paulo';
    expect(nextOpening(office, sp('2026-01-05T12:30'), tz)!.toISOString()).toBe(sp('2026-01-05T13:00').toISOString());
    expect(nextOpening(office, sp('2026-01-05T18:30'), tz)!.toISOString()).toBe(sp('2026-01-06T08:00').toISOString());
    expect(nextOpening(office, sp('2026-01-09T19:00'), tz)!.toISOString()).toBe(sp('2026-01-12T08:00').toISOString());
    expect(nextOpening(office, sp('2026-01-05T09:00'), tz)!.toISOString()).toBe(sp('2026-01-05T09:00').toISOString());
    expect(nextOpening({ monday: { enable: true, startAt1: '08:00', endAt1: '09:00' } }, sp('2026-01-05T10:00'), tz)!.toISOString()).toBe(sp('2026-01-12T08:00').toISOString());
    expect(nextOpening({ monday: { enable: true, startAt1: 'xx', endAt1: '' }, tuesday: { enable: false } }, sp('2026-01-06T10:00'), tz)!.toISOString()).toBe(sp('2026-01-12T00:00').toISOString());
  });

  it('without any enabled day a department has no business hours: always open', () => {
    expect(isOpenAt(undefined, new Date(), 'UTC')).toBe(true);
    expect(isOpenAt({ monday: { enable: false, startAt1: '08:00', endAt1: '09:00' } }, new Date('2026-01-05T20:00:00Z'), 'UTC')).toBe(true);
    // An enabled day without slots is open all day.
    expect(isOpenAt({ monday: { enable: true } }, new Date('2026-01-05T23:00:00Z'), 'UTC')).toBe(true);
    expect(isOpenAt({ monday: { enable: true } }, new Date('2026-01-06T01:00:00Z'), 'UTC')).toBe(false);
  });

  it('zonedInstant turns a wall-clock time into the instant, across a daylight-saving change', () => {
    expect(new Date(zonedInstant(2026, 1, 5, 8 * 60, 'America/Sao_Paulo')).toISOString()).toBe('2026-01-05T11:00:00.000Z');
    // New York: EST in January, EDT in July.
    expect(new Date(zonedInstant(2026, 1, 5, 9 * 60, 'America/New_York')).toISOString()).toBe('2026-01-05T14:00:00.000Z');
    expect(new Date(zonedInstant(2026, 7, 6, 9 * 60, 'America/New_York')).toISOString()).toBe('2026-07-06T13:00:00.000Z');
  });
});

describe('automatic message rules (seed 001 §5)', () => {
  it('checks command, minutes and text with the seed texts, and saves minutes as numbers', () => {
    expect(validateAutomaticRules([
      { command: '', timeInMinutes: 5 },
      { command: 'sendMessage', timeInMinutes: '0', arg: 'Oi' },
      { command: 'sendMessage', timeInMinutes: 3, arg: '  ' },
      { command: 'closeChat', timeInMinutes: '30' },
    ])).toEqual([
      { index: 0, field: 'command', message: 'Selecione um comando valido' },
      { index: 1, field: 'timeInMinutes', message: 'Selecione uma minutagem valida' },
      { index: 2, field: 'arg', message: 'Adicione o texto da mensagem' },
    ]);
    expect(normaliseAutomaticRules([{ command: 'closeChat', timeInMinutes: '30', arg: 'x', repeat: true }, { command: 'sendMessage', timeInMinutes: '5', arg: ' Oi ' }]))
      .toEqual([{ command: 'closeChat', timeInMinutes: 30, repeat: true }, { command: 'sendMessage', arg: 'Oi', timeInMinutes: 5, repeat: false }]);
  });
});

describe('contingencies', () => {
  const base = { active: true, finished: false, startTime: '2026-01-05T10:00:00.000Z', endTime: '2026-01-05T14:00:00.000Z', defaultMessage: 'x' };
  const at = new Date('2026-01-05T12:00:00Z');

  it('active inside [start, end), switched on, not finished; matching department and channels', () => {
    expect(contingencyFor([{ id: 'a', ...base }], { departmentId: 'd', channelId: 'c' }, at)?.id).toBe('a');
    expect(contingencyFor([{ id: 'a', ...base }], { departmentId: 'd', channelId: 'c' }, new Date('2026-01-05T14:00:00Z'))).toBeNull();
    expect(contingencyFor([{ id: 'a', ...base, finished: true }], { departmentId: 'd', channelId: 'c' }, at)).toBeNull();
    expect(contingencyFor([{ id: 'a', ...base, active: false }], { departmentId: 'd', channelId: 'c' }, at)).toBeNull();
    expect(contingencyFor([{ id: 'a', ...base, departamentId: 'x' }], { departmentId: 'd', channelId: 'c' }, at)).toBeNull();
    expect(contingencyFor([{ id: 'a', ...base, channels: ['z'] }], { departmentId: 'd', channelId: 'c' }, at)).toBeNull();
  });

  it('a window from dates, hours and offset when the instants are not stored', () => {
    const fromFields = { id: 'f', active: true, startDate: '2026-01-05', startHour: '08:00', endDate: '2026-01-05', endHour: '10:00', timezoneOffset: -3 };
    expect(contingencyFor([fromFields], { departmentId: null, channelId: null }, new Date('2026-01-05T11:30:00Z'))?.id).toBe('f');
    expect(contingencyFor([fromFields], { departmentId: null, channelId: null }, new Date('2026-01-05T13:00:00Z'))).toBeNull();
  });

  it('overlaps: the most specific wins, then the one that started last', () => {
    const list = [
      { id: 'global', ...base },
      { id: 'channel', ...base, channels: ['c'] },
      { id: 'dept', ...base, departamentId: 'd' },
      { id: 'both', ...base, departamentId: 'd', channels: ['c'] },
      { id: 'later-global', ...base, startTime: '2026-01-05T11:00:00.000Z' },
    ];
    expect(contingencyFor(list, { departmentId: 'd', channelId: 'c' }, at)?.id).toBe('both');
    expect(contingencyFor(list, { departmentId: 'd', channelId: 'other' }, at)?.id).toBe('dept');
    expect(contingencyFor(list, { departmentId: 'x', channelId: 'c' }, at)?.id).toBe('channel');
    expect(contingencyFor(list, { departmentId: 'x', channelId: 'other' }, at)?.id).toBe('later-global');
  });
});
