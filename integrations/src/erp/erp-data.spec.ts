import { describe, expect, it } from 'vitest';
import { cnpjFrom, cpfFrom, generateErpTables, isValidCgc } from './erp-data';

describe('local ERP data', () => {
  it('computes CPF and CNPJ check digits as the Receita Federal does', () => {
    // Published examples: CPF 529.982.247-25, CNPJ 11.222.333/0001-81.
    expect(cpfFrom([5, 2, 9, 9, 8, 2, 2, 4, 7])).toBe('52998224725');
    expect(cnpjFrom([1, 1, 2, 2, 2, 3, 3, 3], 1)).toBe('11222333000181');
    expect(isValidCgc('529.982.247-25')).toBe(true);
    expect(isValidCgc('529.982.247-24')).toBe(false);
    expect(isValidCgc('11.222.333/0001-81')).toBe(true);
    expect(isValidCgc('111.111.111-11')).toBe(false);
  });

  it('is deterministic and realistic: valid documents, unique keys, linked salesmen and companies', () => {
    const a = generateErpTables();
    expect(generateErpTables()).toEqual(a);
    expect(a.SA1).toHaveLength(240);
    expect(new Set(a.SA1.map((c) => `${c.A1_COD}${c.A1_LOJA}`)).size).toBe(240);
    for (const c of a.SA1) {
      expect(isValidCgc(String(c.A1_CGC)), String(c.A1_CGC)).toBe(true);
      expect(String(c.A1_CGC)).toHaveLength(c.A1_PESSOA === 'J' ? 14 : 11);
      expect(a.SA3.some((s) => s.A3_COD === c.A1_VEND)).toBe(true);
      expect(a.SM0.some((m) => m.M0_CODIGO === c.EMPRESA && m.M0_FILIAL === c.FILIAL)).toBe(true);
      expect(String(c.A1_TEL)).toMatch(/^9\d{8}$/);
    }
    for (const s of a.SA3) expect(isValidCgc(String(s.A3_CGC))).toBe(true);
    for (const d of a.DA4) expect(isValidCgc(String(d.DA4_CGC))).toBe(true);
    for (const m of a.SM0) expect(isValidCgc(String(m.M0_CGC))).toBe(true);
    // Both kinds of people and a second store of some companies.
    expect(a.SA1.some((c) => c.A1_PESSOA === 'F')).toBe(true);
    expect(a.SA1.some((c) => c.A1_LOJA === '02')).toBe(true);
    expect(generateErpTables({ seed: 7 }).SA1[0]).not.toEqual(a.SA1[0]);
  });
});
