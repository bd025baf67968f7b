import { useEffect, useMemo, useState } from 'react';
import { Box, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItemButton, ListItemIcon, ListItemText, Radio, TextField } from '@mui/material';
import { hasTenantClaim, offeredTags, messages as seedTexts, type TagOption } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { Room } from '../../model/chat';
import { texts } from '../../ui/texts';

/**
 * The tag-selection dialog (seed 001 §2 "Other dialogs", §5 "Tags"): single choice unless tenant
 * claim multiTags; with tagsPerDepto only the chat's departments' tags (and global ones); only
 * active tags with a name; the search is case-insensitive on the name. Saving answers
 * 'Tags alteradas!' (the caller toasts it); the server checks the same rules.
 */
export function TagsDialog(props: {
  open: boolean;
  room: Pick<Room, 'tags' | 'departmentId' | 'queues'>;
  tags: TagOption[];
  onCancel: () => void;
  onConfirm: (tagIds: string[]) => Promise<boolean> | boolean;
}) {
  const { appConfig } = useConsole();
  const multi = hasTenantClaim(appConfig, 'multiTags');
  const [chosen, setChosen] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!props.open) return;
    setChosen(props.room.tags ?? []);
    setSearch('');
  }, [props.open, props.room.tags]);
  const offered = useMemo(() => offeredTags(appConfig, props.tags, props.room, search), [appConfig, props.tags, props.room, search]);

  const toggle = (id: string) => {
    if (!multi) return setChosen((c) => (c[0] === id ? [] : [id]));
    setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));
  };
  const save = async () => {
    setBusy(true);
    await props.onConfirm(chosen);
    setBusy(false);
  };

  return (
    <Dialog open={props.open} onClose={props.onCancel} fullWidth maxWidth="xs" aria-labelledby="tags-title">
      <DialogTitle id="tags-title">{texts.tags.title}</DialogTitle>
      <DialogContent>
        <TextField size="small" fullWidth label={texts.tags.search} value={search} onChange={(e) => setSearch(e.target.value)} sx={{ mt: 1 }} />
        <List dense sx={{ maxHeight: 320, overflow: 'auto' }} aria-label={texts.tags.title}>
          {offered.map((tag) => {
            const on = chosen.includes(tag.id);
            const control = { edge: 'start' as const, checked: on, tabIndex: -1, disableRipple: true, slotProps: { input: { 'aria-label': tag.name } } };
            return (
              <ListItemButton key={tag.id} onClick={() => toggle(tag.id)} selected={on}>
                <ListItemIcon>{multi ? <Checkbox {...control} /> : <Radio {...control} />}</ListItemIcon>
                <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: tag.color ?? '#1976D2FF', mr: 1, flex: 'none' }} />
                <ListItemText primary={tag.name} />
              </ListItemButton>
            );
          })}
          {offered.length === 0 && <ListItemText sx={{ px: 2 }} secondary={seedTexts.chat.emptyList} />}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{texts.tags.close}</Button>
        <Button variant="contained" disabled={busy} onClick={() => void save()}>{texts.tags.save}</Button>
      </DialogActions>
    </Dialog>
  );
}
