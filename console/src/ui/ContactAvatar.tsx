import { useState } from 'react';
import { Avatar, Box, DialogContent } from '@mui/material';
import { LazyDialog } from './LazyOverlay';
import { safeMediaSrc } from './RichText';

export function initials(name: string | null | undefined): string {
  return (name ?? '?').trim().split(/\s+/).slice(0, 2).map((w) => w[0]?.toUpperCase() ?? '').join('') || '?';
}

/** Photo or initials; a click opens the photo larger (seed 001 §2 "Avatar (dialog to enlarge)"). */
export function ContactAvatar({ name, photoUrl, size = 40 }: { name?: string | null; photoUrl?: string | null; size?: number }) {
  const [open, setOpen] = useState(false);
  const src = safeMediaSrc(photoUrl);
  return (
    <>
      <Avatar
        src={src}
        alt={name ?? ''}
        sx={{ width: size, height: size, fontSize: size * 0.4, cursor: src ? 'zoom-in' : 'default', bgcolor: '#90a4ae' }}
        onClick={(e) => { if (src) { e.stopPropagation(); setOpen(true); } }}
      >
        {initials(name)}
      </Avatar>
      {src && <PhotoDialog open={open} src={src} name={name} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The contact's photo enlarged (the avatar's click). */
export function PhotoDialog({ open, src, name, onClose }: { open: boolean; src: string; name?: string | null; onClose: () => void }) {
  return (
    <LazyDialog open={open} onClose={onClose} onClick={(e) => e.stopPropagation()}>
      <DialogContent><Box component="img" src={src} alt={name ?? ''} sx={{ maxWidth: 480, maxHeight: 480 }} /></DialogContent>
    </LazyDialog>
  );
}
