import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { messages, type StatusOption } from '@atendimento/schemas';
import { DEFAULT_STATUS } from '../presence/presence';
import { StatusIcon } from '../ui/StatusIcon';

export interface StatusOptionsMenuProps {
  open: boolean;
  anchor: HTMLElement | null;
  options: StatusOption[];
  selected: StatusOption | undefined;
  onClose: () => void;
  onChoose: (option: StatusOption) => void;
}

/** The status bar's menu (StatusMenu.tsx): its own chunk, loaded when it first opens. */
export function StatusOptionsMenu({ open, anchor, options, selected, onClose, onChoose }: StatusOptionsMenuProps) {
  return (
    <Menu anchorEl={anchor} open={open} onClose={onClose}>
      {options.map((option) => (
        <MenuItem key={option.text} selected={option === selected} onClick={() => onChoose(option)}>
          <ListItemIcon>
            <StatusIcon name={option.icon} sx={{ color: option.color }} />
          </ListItemIcon>
          {/* The router returns the chats it gave an agent who leaves 'online' unanswered: said before the choice, not after. */}
          <ListItemText
            primary={option.text}
            secondary={option.text.toLowerCase() === DEFAULT_STATUS ? undefined : messages.presence.awayReturnsChats}
            slotProps={{ primary: { sx: { textTransform: 'capitalize' } }, secondary: { sx: { whiteSpace: 'normal', maxWidth: 260 } } }}
          />
        </MenuItem>
      ))}
    </Menu>
  );
}
