/**
 * mulberry32: a tiny seeded generator, so demo data and the local ERP's rows are the same on
 * every machine and in every test.
 */
export type SeededRandom = ReturnType<typeof seededRandom>;

export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    digits: (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)),
    id: (prefix = '') => prefix + Array.from({ length: 20 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(next() * 36)]).join(''),
  };
}
