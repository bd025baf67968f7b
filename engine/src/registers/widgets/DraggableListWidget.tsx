import { useEffect, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import DragIndicator from '@mui/icons-material/DragIndicator';
import type { WidgetProps } from '@rjsf/utils';
import { messages } from '@atendimento/schemas';
import { lookup, type LookupOption } from './lookup';

/** Moves item `from` to position `to`. */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/**
 * An ordered list of ids (departments' orderedAgents): drag a row, or use the arrows (keyboard
 * users, tests). Titles come from `ui:options.resource`.
 */
export function DraggableListWidget({ id, value, label, disabled, readonly, onChange, options }: WidgetProps) {
  const list = Array.isArray(value) ? value.map(String) : [];
  const resource = typeof options.resource === 'string' ? options.resource : '';
  const [titles, setTitles] = useState<Record<string, string>>({});
  const [dragging, setDragging] = useState<number | null>(null);
  const locked = disabled || readonly;
  const key = list.join(',');

  useEffect(() => {
    if (!resource || !key) return;
    const controller = new AbortController();
    lookup(resource, { ids: key.split(',') }, controller.signal)
      .then((found: LookupOption[]) => setTitles(Object.fromEntries(found.map((o) => [o.id, o.label]))))
      .catch(() => undefined);
    return () => controller.abort();
  }, [resource, key]);

  return (
    <div id={id}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      {list.length === 0 ? (
        <Typography variant="body2">{messages.table.empty}</Typography>
      ) : (
        <List dense aria-label={label}>
          {list.map((item, index) => (
            <ListItem
              key={item}
              draggable={!locked}
              onDragStart={() => setDragging(index)}
              onDragOver={(event) => event.preventDefault()}
              onDrop={() => {
                if (dragging !== null && dragging !== index) onChange(move(list, dragging, index));
                setDragging(null);
              }}
              secondaryAction={
                <>
                  <IconButton size="small" aria-label={`${messages.registers.moveUp}: ${titles[item] ?? item}`} disabled={locked || index === 0} onClick={() => onChange(move(list, index, index - 1))}>
                    <ArrowUpward fontSize="small" />
                  </IconButton>
                  <IconButton size="small" aria-label={`${messages.registers.moveDown}: ${titles[item] ?? item}`} disabled={locked || index === list.length - 1} onClick={() => onChange(move(list, index, index + 1))}>
                    <ArrowDownward fontSize="small" />
                  </IconButton>
                </>
              }
              sx={{ cursor: locked ? 'default' : 'grab', borderBottom: 1, borderColor: 'divider' }}
            >
              <ListItemIcon sx={{ minWidth: 32 }}>
                <DragIndicator fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={`${index + 1}. ${titles[item] ?? item}`} />
            </ListItem>
          ))}
        </List>
      )}
    </div>
  );
}
