import { Box, List, ListItem, ListItemText, Paper, Typography } from '@mui/material';
import { messages as seedTexts } from '@atendimento/schemas';
import type { Room } from '../../model/chat';
import { formatPhone } from '../../ui/format';
import { usePhoneFormats } from '../../ui/phoneFormats';

/**
 * The group drawer (seed 001 §2 "Group drawer"): shown beside a group conversation. Its title
 * is the group subject for channels that carry one (the channel row's `groups`), otherwise the
 * author's name; it lists the 'Participantes' with name and phone in international format.
 */
export function GroupDrawer({ room }: { room: Room }) {
  usePhoneFormats();
  const participants = room.groupData?.participants ?? [];
  const title = room.groupData?.subject || room.author?.displayName || '';
  return (
    <Paper elevation={1} sx={{ width: 226, flexShrink: 0, height: '100%', overflow: 'auto' }} aria-label={seedTexts.internalChat.participants} data-group-drawer={room.id}>
      <Box sx={{ p: 1.5, borderBottom: '1px solid #eee' }}>
        <Typography variant="subtitle2" role="heading" aria-level={3}>{title}</Typography>
      </Box>
      <Typography variant="overline" sx={{ px: 1.5 }}>{seedTexts.internalChat.participants}</Typography>
      <List dense>
        {participants.map((p) => (
          <ListItem key={p.phone}>
            <ListItemText primary={p.displayName || formatPhone(p.phone)} secondary={formatPhone(p.phone)} />
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
