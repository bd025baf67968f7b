import { useState, type ReactElement } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { messages } from '@atendimento/schemas';
import type { RegisterRecord } from '@atendimento/schemas/registers/index';

interface Photo {
  src: string;
  description?: string;
}

function photosOf(record: Partial<RegisterRecord>): Photo[] {
  const raw = Array.isArray(record.photos) ? record.photos : [];
  return raw.filter((p): p is Photo => Boolean(p) && typeof (p as Photo).src === 'string' && (p as Photo).src !== '');
}

function linkOf(value: unknown): string | null {
  const link = value && typeof value === 'object' ? (value as { link?: unknown }).link : null;
  return typeof link === 'string' && /^https?:\/\//i.test(link) ? link : null;
}

/** The photos of a negotiation one at a time, with 'Anterior' / 'Próxima' and a counter. */
function PhotoCarousel({ photos }: { photos: Photo[] }) {
  const [index, setIndex] = useState(0);
  if (photos.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {messages.registers.noImage}
      </Typography>
    );
  }
  const current = photos[Math.min(index, photos.length - 1)]!;
  const at = Math.min(index, photos.length - 1);
  return (
    <Box role="region" aria-label={messages.registers.photos}>
      <Box
        component="img"
        src={current.src}
        alt={current.description || `${messages.registers.photos} ${at + 1}`}
        sx={{ display: 'block', width: '100%', maxHeight: 360, objectFit: 'contain', bgcolor: 'grey.100', borderRadius: 1 }}
      />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
        <Button size="small" startIcon={<ChevronLeft />} disabled={at === 0} onClick={() => setIndex(at - 1)}>
          {messages.registers.previous}
        </Button>
        <Typography variant="body2" sx={{ flex: 1, textAlign: 'center' }}>
          {current.description ? `${current.description} — ` : ''}
          {at + 1} / {photos.length}
        </Typography>
        <Button size="small" endIcon={<ChevronRight />} disabled={at >= photos.length - 1} onClick={() => setIndex(at + 1)}>
          {messages.registers.next}
        </Button>
      </Box>
    </Box>
  );
}

/**
 * The hand-written part of the negotiations' read-only screen (seed 000 §2: "a photos
 * carousel, links to order and negotiation sheet"), shown above the generated form; the one
 * override the issue allows (list.json "showOverride": "negotiations").
 */
export function NegotiationShow({ record }: { record: Partial<RegisterRecord> }) {
  const order = linkOf(record.order);
  const sheet = linkOf(record.sheet);
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2, maxWidth: 880 }}>
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {messages.registers.photos}
      </Typography>
      <PhotoCarousel photos={photosOf(record)} />
      <Box sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap' }}>
        <Button variant="outlined" size="small" endIcon={<OpenInNew />} disabled={!order} {...(order && { component: 'a', href: order, target: '_blank', rel: 'noreferrer' })}>
          {messages.registers.order}
        </Button>
        <Button variant="outlined" size="small" endIcon={<OpenInNew />} disabled={!sheet} {...(sheet && { component: 'a', href: sheet, target: '_blank', rel: 'noreferrer' })}>
          {messages.registers.sheet}
        </Button>
      </Box>
    </Paper>
  );
}

/** Hand-written additions to a register's Show screen, by list.json `showOverride`. */
export const SHOW_OVERRIDES: Record<string, (props: { record: Partial<RegisterRecord> }) => ReactElement> = {
  negotiations: NegotiationShow,
};
