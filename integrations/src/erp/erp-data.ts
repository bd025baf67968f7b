/**
 * The local ERP's records: companies (SM0), clients (SA1), salesmen (SA3) and drivers (DA4) in
 * Protheus' column names, generated from a fixed seed so every machine and every test sees the
 * same rows. Names follow Protheus habits (upper case, no accents); CPF and CNPJ numbers carry
 * valid check digits.
 */

import { seededRandom } from '../seeded-random';

export type ErpRow = Record<string, string | number>;

export interface ErpTables {
  SM0: ErpRow[];
  SA1: ErpRow[];
  SA3: ErpRow[];
  DA4: ErpRow[];
}

function checkDigit(digits: number[], weights: number[]): number {
  const sum = digits.reduce((acc, d, i) => acc + d * weights[i]!, 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** A CPF with valid check digits from its first nine digits. */
export function cpfFrom(base: number[]): string {
  const d1 = checkDigit(base, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigit([...base, d1], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return [...base, d1, d2].join('');
}

/** A CNPJ with valid check digits from its eight-digit root and four-digit branch. */
export function cnpjFrom(root: number[], branch = 1): string {
  const base = [...root, ...String(branch).padStart(4, '0').split('').map(Number)];
  const d1 = checkDigit(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigit([...base, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return [...base, d1, d2].join('');
}

/** True when a CPF (11 digits) or CNPJ (14 digits) has valid check digits. */
export function isValidCgc(raw: string): boolean {
  const digits = raw.replace(/\D/g, '');
  if (/^(\d)\1+$/.test(digits)) return false;
  if (digits.length === 11) return cpfFrom(digits.slice(0, 9).split('').map(Number)) === digits;
  if (digits.length === 14) return cnpjFrom(digits.slice(0, 8).split('').map(Number), Number(digits.slice(8, 12))) === digits;
  return false;
}

const FIRST = ['ANA', 'BRUNO', 'CARLA', 'DIEGO', 'EDUARDA', 'FELIPE', 'GABRIELA', 'HENRIQUE', 'ISABELA', 'JOAO', 'LARISSA', 'MARCOS', 'NATALIA', 'OTAVIO', 'PATRICIA', 'RAFAEL', 'SABRINA', 'THIAGO', 'VANESSA', 'WAGNER', 'LUCAS', 'MARIANA', 'PEDRO', 'JULIANA', 'GUSTAVO', 'CAMILA', 'RODRIGO', 'LETICIA', 'ANDRE', 'FERNANDA', 'RICARDO', 'BEATRIZ', 'SERGIO', 'ALINE', 'CLAUDIO', 'DEBORA'];
const MIDDLE = ['DA', 'DOS', 'DE', 'DAS'];
const LAST = ['SILVA', 'SANTOS', 'OLIVEIRA', 'SOUZA', 'RODRIGUES', 'FERREIRA', 'ALVES', 'PEREIRA', 'LIMA', 'GOMES', 'COSTA', 'RIBEIRO', 'MARTINS', 'CARVALHO', 'ALMEIDA', 'LOPES', 'SOARES', 'FERNANDES', 'VIEIRA', 'BARBOSA', 'ROCHA', 'DIAS', 'NASCIMENTO', 'ANDRADE', 'MOREIRA', 'NUNES', 'MARQUES', 'MACHADO', 'MENDES', 'FREITAS'];
const SEGMENTS = ['COMERCIO DE ALIMENTOS', 'MATERIAIS DE CONSTRUCAO', 'AUTO PECAS', 'DISTRIBUIDORA', 'SUPERMERCADO', 'FARMACIA', 'PAPELARIA', 'MOVEIS', 'TRANSPORTES', 'AGROPECUARIA', 'ELETRICA', 'CONFECCOES', 'PADARIA E CONFEITARIA', 'INFORMATICA', 'FERRAGENS'];
const SUFFIXES = ['LTDA', 'LTDA', 'LTDA', 'ME', 'EIRELI', 'S.A.'];
const SHORT: Record<string, string> = {
  'COMERCIO DE ALIMENTOS': 'ALIMENTOS', 'MATERIAIS DE CONSTRUCAO': 'MAT CONSTR', 'AUTO PECAS': 'AUTO PECAS', DISTRIBUIDORA: 'DISTRIB',
  SUPERMERCADO: 'SUPERMERC', FARMACIA: 'FARMACIA', PAPELARIA: 'PAPELARIA', MOVEIS: 'MOVEIS', TRANSPORTES: 'TRANSP', AGROPECUARIA: 'AGROPEC',
  ELETRICA: 'ELETRICA', CONFECCOES: 'CONFECCOES', 'PADARIA E CONFEITARIA': 'PADARIA', INFORMATICA: 'INFO', FERRAGENS: 'FERRAGENS',
};
const CITIES: [string, string, string, string][] = [
  ['SAO PAULO', 'SP', '11', '01'], ['CAMPINAS', 'SP', '19', '13'], ['SANTOS', 'SP', '13', '11'], ['RIO DE JANEIRO', 'RJ', '21', '20'],
  ['BELO HORIZONTE', 'MG', '31', '30'], ['CURITIBA', 'PR', '41', '80'], ['PORTO ALEGRE', 'RS', '51', '90'], ['FLORIANOPOLIS', 'SC', '48', '88'],
  ['SALVADOR', 'BA', '71', '40'], ['RECIFE', 'PE', '81', '50'], ['FORTALEZA', 'CE', '85', '60'], ['GOIANIA', 'GO', '62', '74'], ['BRASILIA', 'DF', '61', '70'],
];
const STREETS = ['RUA DAS FLORES', 'AV PAULISTA', 'RUA XV DE NOVEMBRO', 'AV BRASIL', 'RUA SETE DE SETEMBRO', 'AV GETULIO VARGAS', 'RUA TIRADENTES', 'RUA DOM PEDRO II', 'AV DAS NACOES', 'RUA SANTOS DUMONT'];
const DISTRICTS = ['CENTRO', 'JARDIM AMERICA', 'VILA NOVA', 'BELA VISTA', 'SAO JOSE', 'BOA VISTA', 'SANTA CRUZ', 'INDUSTRIAL'];

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const mail = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '.').replace(/^\.|\.$/g, '');

/** Companies and branches (SM0): who the ERP's data belongs to. */
const COMPANIES = [
  { M0_CODIGO: '01', M0_FILIAL: '01', M0_NOME: 'ATENDE DISTRIBUIDORA', M0_NOMECOM: 'ATENDE DISTRIBUIDORA DE PRODUTOS S.A.', city: 0 },
  { M0_CODIGO: '01', M0_FILIAL: '02', M0_NOME: 'ATENDE DISTRIBUIDORA', M0_NOMECOM: 'ATENDE DISTRIBUIDORA DE PRODUTOS S.A. - FILIAL CAMPINAS', city: 1 },
  { M0_CODIGO: '02', M0_FILIAL: '01', M0_NOME: 'NORTE SUL COMERCIO', M0_NOMECOM: 'NORTE SUL COMERCIO E REPRESENTACOES LTDA', city: 4 },
];

/** Builds the local ERP's tables; the same seed gives the same rows on every run. */
export function generateErpTables(options: { seed?: number; clients?: number; salesmen?: number; drivers?: number } = {}): ErpTables {
  const rnd = seededRandom(options.seed ?? 20261122);
  const person = () => {
    const first = rnd.pick(FIRST);
    const last = rnd.pick(LAST);
    const name = rnd.next() < 0.5 ? `${first} ${rnd.pick(MIDDLE)} ${last}` : `${first} ${rnd.pick(LAST)} ${last}`;
    return { first, last, name };
  };
  const phone = () => `9${pad(rnd.int(6000, 9999), 4)}${pad(rnd.int(0, 9999), 4)}`;

  const SM0: ErpRow[] = [];
  const roots = new Map<string, number[]>();
  for (const c of COMPANIES) {
    if (!roots.has(c.M0_CODIGO)) roots.set(c.M0_CODIGO, rnd.digits(8));
    const [city, state] = CITIES[c.city]!;
    SM0.push({ M0_CODIGO: c.M0_CODIGO, M0_FILIAL: c.M0_FILIAL, M0_NOME: c.M0_NOME, M0_NOMECOM: c.M0_NOMECOM, M0_CGC: cnpjFrom(roots.get(c.M0_CODIGO)!, Number(c.M0_FILIAL)), M0_CIDENT: city, M0_ESTENT: state });
  }
  const branch = () => rnd.pick(SM0) as { M0_CODIGO: string; M0_FILIAL: string };

  const SA3: ErpRow[] = [];
  for (let i = 1; i <= (options.salesmen ?? 12); i++) {
    const p = person();
    const b = branch();
    const [, , ddd] = CITIES[rnd.int(0, CITIES.length - 1)]!;
    SA3.push({
      A3_FILIAL: b.M0_FILIAL, A3_COD: pad(i, 6), A3_LOJA: '01', A3_CGC: cpfFrom(rnd.digits(9)), A3_NOME: p.name, A3_NREDUZ: `${p.first} ${p.last}`,
      A3_EMAIL: `${mail(p.first)}.${mail(p.last)}@atende.com.br`, A3_DDDTEL: ddd, A3_TEL: phone(), A3_MSBLQL: '2',
      FILIAL: b.M0_FILIAL, EMPRESA: b.M0_CODIGO,
    });
  }

  const DA4: ErpRow[] = [];
  for (let i = 1; i <= (options.drivers ?? 15); i++) {
    const p = person();
    const b = branch();
    DA4.push({
      DA4_FILIAL: b.M0_FILIAL, DA4_COD: pad(i, 6), DA4_NOME: p.name, DA4_NREDUZ: `${p.first} ${p.last}`, DA4_CGC: cpfFrom(rnd.digits(9)),
      DA4_NUMCNH: rnd.digits(11).join(''), DA4_TEL: `${CITIES[rnd.int(0, CITIES.length - 1)]![2]}${phone()}`, DA4_BLQMOT: '2',
      FILIAL: b.M0_FILIAL, EMPRESA: b.M0_CODIGO,
    });
  }

  const SA1: ErpRow[] = [];
  const total = options.clients ?? 240;
  for (let i = 1; SA1.length < total; i++) {
    const b = branch();
    const [city, state, ddd, cep] = CITIES[rnd.int(0, CITIES.length - 1)]!;
    const salesman = rnd.pick(SA3);
    const company = rnd.next() < 0.6;
    const p = person();
    const segment = rnd.pick(SEGMENTS);
    const root = rnd.digits(8);
    const name = company ? `${p.last} ${segment} ${rnd.pick(SUFFIXES)}` : p.name;
    const short = company ? `${p.last} ${SHORT[segment]}` : `${p.first} ${p.last}`;
    // Some companies have a second store: same CNPJ root, next branch number, A1_LOJA '02'.
    const stores = company && rnd.next() < 0.15 ? 2 : 1;
    for (let loja = 1; loja <= stores && SA1.length < total; loja++) {
      SA1.push({
        A1_FILIAL: b.M0_FILIAL, A1_COD: pad(i, 6), A1_LOJA: pad(loja, 2), A1_PESSOA: company ? 'J' : 'F',
        A1_CGC: company ? cnpjFrom(root, loja) : cpfFrom(root.concat(rnd.digits(1))),
        A1_NOME: name, A1_NREDUZ: loja === 2 ? `${short} LJ2`.slice(0, 20) : short.slice(0, 20),
        A1_END: `${rnd.pick(STREETS)}, ${rnd.int(10, 2999)}`, A1_BAIRRO: rnd.pick(DISTRICTS), A1_MUN: city, A1_EST: state,
        A1_CEP: `${cep}${pad(rnd.int(0, 999), 3)}${pad(rnd.int(0, 999), 3)}`, A1_DDD: ddd, A1_TEL: phone(),
        A1_EMAIL: company ? `contato@${mail(p.last)}${mail(SHORT[segment]!).replace(/\./g, '')}.com.br` : `${mail(p.first)}.${mail(p.last)}@email.com.br`,
        A1_VEND: salesman.A3_COD!, A1_MSBLQL: rnd.next() < 0.05 ? '1' : '2', A1_LC: rnd.int(5, 200) * 500,
        FILIAL: b.M0_FILIAL, EMPRESA: b.M0_CODIGO,
      });
    }
  }
  return { SM0, SA1, SA3, DA4 };
}

/** The queries the local ERP publishes for the endpoint form, by ENDPOINT name. */
export const ERP_ENDPOINTS: Record<string, { table: keyof ErpTables; label: string; order: string }> = {
  clientes: { table: 'SA1', label: 'Clientes', order: 'A1_NOME' },
  vendedores: { table: 'SA3', label: 'Vendedores', order: 'A3_NOME' },
  motoristas: { table: 'DA4', label: 'Motoristas', order: 'DA4_NOME' },
  empresas: { table: 'SM0', label: 'Empresas', order: 'M0_CODIGO, M0_FILIAL' },
};

/** Table names the direct form accepts: SA1, SA1010 (Protheus' company suffix), SYS_COMPANY... */
export function tableOf(name: string): keyof ErpTables | null {
  const upper = name.toUpperCase();
  if (upper === 'SM0' || upper === 'SYS_COMPANY' || upper === 'SIGAMAT') return 'SM0';
  const match = /^(SA1|SA3|DA4)(\d{3})?$/.exec(upper);
  return match ? (match[1] as keyof ErpTables) : null;
}
