import { useState } from 'react';
import { Box, Button, Chip } from '@mui/material';
import { texts } from '../../ui/texts';

/** Queue chips shown before 'Ver mais' (seed 001 §2: 2 by default). */
export const QUEUE_CHIPS_SHOWN = 2;

/**
 * The queue chips of 'Todas Filas' (seed 001 §2): each queue with its waiting chats (GET
 * /api/counter `queues`), 2 at first with 'Ver mais' / 'Ver menos', a click narrows the list to
 * that queue and 'Limpar filtro' undoes it.
 */
export function QueueChips({ counts, names, selected, onSelect }: { counts: Record<string, number>; names: Record<string, string>; selected: string | null; onSelect: (queueId: string | null) => void }) {
  const [all, setAll] = useState(false);
  const queues = Object.entries(counts).sort((a, b) => b[1] - a[1] || (names[a[0]] ?? a[0]).localeCompare(names[b[0]] ?? b[0], 'pt-BR'));
  if (queues.length === 0 && !selected) return null;
  const shown = all ? queues : queues.slice(0, QUEUE_CHIPS_SHOWN);
  // The chosen queue stays visible even when it is past the first two.
  if (selected && !shown.some(([id]) => id === selected)) shown.push([selected, counts[selected] ?? 0]);
  return (
    <Box role="group" aria-label="Filas" sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5, px: 1, py: 0.5, borderBottom: '1px solid #eee' }}>
      {shown.map(([id, n]) => (
        <Chip key={id} size="small" label={`${names[id] ?? id} (${n})`} color={selected === id ? 'primary' : 'default'} onClick={() => onSelect(selected === id ? null : id)} data-queue={id} />
      ))}
      {queues.length > QUEUE_CHIPS_SHOWN && (
        <Button size="small" onClick={() => setAll((a) => !a)}>{all ? texts.queueChips.seeLess : texts.queueChips.seeMore}</Button>
      )}
      {selected && <Button size="small" onClick={() => onSelect(null)}>{texts.queueChips.clear}</Button>}
    </Box>
  );
}
