import { describe, expect, it, vi } from 'vitest';
import { formatMessageTime, formatPhone } from './format';
import { phoneLibrary } from './phoneFormats';

describe('formatPhone: each country as it writes its numbers', () => {
  it('Brazil keeps the mask of seed 001 §9', () => {
    expect(formatPhone('5511987654321')).toBe('+55 (11) 98765.4321');
    expect(formatPhone('551133334444')).toBe('+55 (11) 3333.4444');
    expect(formatPhone('558001234567')).toBe('+55 800 123 4567');
  });

  it('a foreign number shows as +digits until the formats arrive, and asks for them', () => {
    expect(phoneLibrary()).toBeUndefined();
    expect(formatPhone('972501234567')).toBe('+972501234567');
    // Brazilian numbers never need the download.
    expect(formatPhone('5511987654321')).toBe('+55 (11) 98765.4321');
  });

  it('other countries use their own format, never the Brazilian mask', async () => {
    await vi.waitFor(() => expect(phoneLibrary()).toBeDefined());
    expect(formatPhone('972501234567')).toBe('+972 50 123 4567');
    expect(formatPhone('972987654321')).toBe('+972 987654321');
    expect(formatPhone('14155552671')).toBe('+1 415 555 2671');
    expect(formatPhone('442071838750')).toBe('+44 20 7183 8750');
    expect(formatPhone('+351912345678')).toBe('+351 912 345 678');
  });

  it('ids that are not phones pass through', () => {
    expect(formatPhone('cliente@exemplo.com.br')).toBe('cliente@exemplo.com.br');
    expect(formatPhone('US.13491208655302741918')).toBe('US.13491208655302741918');
    expect(formatPhone('1234')).toBe('1234');
    expect(formatPhone(null)).toBe('');
  });
});

describe('formatMessageTime: the date when the message is not from today', () => {
  const now = new Date(2026, 10, 24, 15, 0).getTime();
  it('today: the time only', () => {
    expect(formatMessageTime(new Date(2026, 10, 24, 9, 5).toISOString(), now)).toBe('09:05');
  });
  it('earlier days: day/month and time; other years with the year', () => {
    expect(formatMessageTime(new Date(2026, 10, 23, 23, 56).toISOString(), now)).toBe('23/11 23:56');
    expect(formatMessageTime(new Date(2025, 0, 2, 8, 0).toISOString(), now)).toBe('02/01/2025 08:00');
  });
  it('no date, no text', () => {
    expect(formatMessageTime(null, now)).toBe('');
    expect(formatMessageTime('não é data', now)).toBe('');
  });
});
