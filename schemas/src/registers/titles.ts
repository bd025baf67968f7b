import { format, messages } from '../messages';
import type { RegisterListMeta } from './types';

// Apart from definition.ts: the route table (on the console's first screen) reads that module,
// and a bundler never splits a module, so this title would carry the registers' form texts
// into the first screen (tests/bench B10b).

/** The create form's title: 'Novo Contato', 'Nova Integração' (the list's gender, seed wording). */
export function newItemTitle(list: Pick<RegisterListMeta, 'itemLabel' | 'gender'>): string {
  return format(list.gender === 'f' ? messages.registers.newItemF : messages.registers.newItem, { item: list.itemLabel });
}
