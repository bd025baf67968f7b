import Avatar, { type AvatarProps } from '@mui/material/Avatar';
import type { User } from '@atendimento/schemas';

const COLORS = ['#1976D2', '#01b882', '#7b1fa2', '#c73c35', '#f57c00', '#00838f', '#5d4037', '#3949ab'];

/** Initials and a stable colour derived from the e-mail: the "avatar generated from the e-mail" of seed 000 §2. */
function avatarFromEmail(email: string, displayName?: string): { initials: string; color: string } {
  const source = (displayName?.trim() || email.split('@')[0] || '?').replace(/[._-]+/g, ' ');
  const words = source.split(/\s+/).filter(Boolean);
  const initials = ((words[0]?.[0] ?? '?') + (words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '')).toUpperCase();
  let hash = 0;
  for (const char of email.toLowerCase()) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return { initials, color: COLORS[hash % COLORS.length]! };
}

/** The user's photo, or the avatar generated from the e-mail. */
export function UserAvatar({ user, size = 40, ...props }: { user: Pick<User, 'email' | 'displayName' | 'photoUrl'>; size?: number } & AvatarProps) {
  const generated = avatarFromEmail(user.email, user.displayName);
  return (
    <Avatar
      src={user.photoUrl ?? undefined}
      alt={user.displayName}
      {...props}
      sx={{ width: size, height: size, fontSize: size * 0.42, bgcolor: generated.color, ...props.sx }}
    >
      {generated.initials}
    </Avatar>
  );
}
