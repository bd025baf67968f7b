import { describe, expect, it } from 'vitest';
import { ErpSqlError, filterRows, parseFilter, parseOrder, parseSelect, sortRows } from './erp-sql';

const rows = [
  { A1_COD: '000001', A1_NOME: 'SILVA AUTO PECAS LTDA', A1_EST: 'SP', A1_LC: 5000 },
  { A1_COD: '000002', A1_NOME: "D'AVILA MOVEIS ME", A1_EST: 'RJ', A1_LC: 12000 },
  { A1_COD: '000003', A1_NOME: 'ANA DA SILVA', A1_EST: 'SP', A1_LC: 2500 },
  { A1_COD: '000004', A1_NOME: 'COSTA FARMACIA LTDA', A1_EST: 'MG', A1_LC: '' },
];
const codes = (list: { A1_COD: string }[]) => list.map((r) => r.A1_COD);

describe('ERP filter language', () => {
  it('filters with LIKE, =, IN, comparisons, NOT, parentheses and quoted quotes', () => {
    expect(codes(filterRows(rows, parseFilter("A1_NOME LIKE '%SILVA%'")))).toEqual(['000001', '000003']);
    expect(codes(filterRows(rows, parseFilter("A1_EST = 'SP' AND A1_LC > 3000")))).toEqual(['000001']);
    expect(codes(filterRows(rows, parseFilter("A1_EST IN ('RJ', 'MG')")))).toEqual(['000002', '000004']);
    expect(codes(filterRows(rows, parseFilter("NOT (A1_EST = 'SP') OR A1_LC <= 2500")))).toEqual(['000002', '000003', '000004']);
    expect(codes(filterRows(rows, parseFilter("A1_NOME = 'D''AVILA MOVEIS ME'")))).toEqual(['000002']);
    expect(codes(filterRows(rows, parseFilter("UPPER(A1_NOME) LIKE 'ANA%' AND A1_EST <> 'RJ'")))).toEqual(['000003']);
    expect(codes(filterRows(rows, parseFilter('A1_LC IS NULL')))).toEqual(['000004']);
    expect(codes(filterRows(rows, parseFilter('')))).toHaveLength(4);
  });

  it('numbers rows like Oracle ROWNUM: only rows that pass get a number', () => {
    expect(codes(filterRows(rows, parseFilter("A1_EST <> 'RJ' AND ROWNUM <= 2")))).toEqual(['000001', '000003']);
    expect(codes(filterRows(rows, parseFilter('ROWNUM < 2')))).toEqual(['000001']);
  });

  it('orders by several columns in either direction', () => {
    expect(codes(sortRows(rows, parseOrder('A1_EST DESC, A1_NOME')))).toEqual(['000003', '000001', '000002', '000004']);
    expect(codes(sortRows(rows, parseOrder('ORDER BY A1_LC DESC')))).toEqual(['000002', '000001', '000003', '000004']);
  });

  it('parses a direct SELECT with columns, table, WHERE and ORDER BY', () => {
    const q = parseSelect("select A1_COD, A1_NOME from SA1010 where A1_EST = 'SP' order by A1_NOME desc");
    expect(q).toMatchObject({ columns: ['A1_COD', 'A1_NOME'], table: 'SA1010', order: [{ column: 'A1_NOME', descending: true }] });
    expect(codes(sortRows(filterRows(rows, q.where), q.order))).toEqual(['000001', '000003']);
    expect(parseSelect('SELECT * FROM SA3').columns).toBeNull();
  });

  it('refuses what it does not understand, naming the position', () => {
    for (const bad of ["A1_NOME LIKE 'x", 'A1_NOME ; DROP TABLE SA1', 'A1_NOME', "A1_EST = 'SP' AND", 'A1_EST = = 1', "A1_EST = 'SP') "]) {
      expect(() => parseFilter(bad), bad).toThrow(ErpSqlError);
    }
    expect(() => parseSelect('DELETE FROM SA1')).toThrow(/esperava SELECT/);
    expect(() => filterRows(rows, parseFilter("NAO_EXISTE = '1'"))).toThrow(/coluna desconhecida NAO_EXISTE/);
  });
});
