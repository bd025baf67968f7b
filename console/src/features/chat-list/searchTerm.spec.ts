import { describe, expect, it } from 'vitest';
import { normalizeSearch } from './searchTerm';

describe('normalizeSearch (seed 001 §5 search box)', () => {
  it('allows empty', () => expect(normalizeSearch('  ')).toEqual({ text: '', numeric: false, error: null }));
  it("asks for 3 letters: 'Favor informar pelo menos 3 letras'", () => {
    expect(normalizeSearch('ab').error).toBe('Favor informar pelo menos 3 letras');
    expect(normalizeSearch('abc').error).toBeNull();
  });
  it('strips + / ( ) and spaces of numeric terms', () => {
    expect(normalizeSearch('+55 (11) 9876-5432')).toEqual({ text: '551198765432', numeric: true, error: null });
    expect(normalizeSearch('(Maria)').text).toBe('Maria');
  });
  it('accepts short numbers (room numbers)', () => expect(normalizeSearch('12')).toEqual({ text: '12', numeric: true, error: null }));
});
