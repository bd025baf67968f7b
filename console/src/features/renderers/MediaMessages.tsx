import { useState } from 'react';
import { Box, Button, Dialog, DialogContent, IconButton, Link, Typography } from '@mui/material';
import DescriptionIcon from '@mui/icons-material/Description';
import RefreshIcon from '@mui/icons-material/Refresh';
import DownloadIcon from '@mui/icons-material/Download';
import type { ChatMessage } from '../../model/chat';
import { RichText, safeHref, safeMediaSrc } from '../../ui/RichText';
import { truncate } from '../../ui/format';
import { LIMITS } from '../../ui/constants';

type Props = { message: ChatMessage };

/** Image with caption; a click opens it larger. */
export function ImageMessage({ message }: Props) {
  const [open, setOpen] = useState(false);
  const url = safeMediaSrc(message.image?.imageUrl);
  const caption = message.image?.caption ?? message.caption;
  return (
    <Box>
      {url ? (
        <Box component="img" src={url} alt={caption ?? 'Imagem'} loading="lazy" onClick={() => setOpen(true)} sx={{ maxWidth: 280, maxHeight: 280, borderRadius: 1, cursor: 'zoom-in', display: 'block' }} />
      ) : (
        <Typography variant="body2">Imagem</Typography>
      )}
      {caption && <Typography variant="body2" sx={{ mt: 0.5 }}><RichText text={caption} /></Typography>}
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="lg">
        <DialogContent>{url && <Box component="img" src={url} alt={caption ?? 'Imagem'} sx={{ maxWidth: '100%' }} />}</DialogContent>
      </Dialog>
    </Box>
  );
}

/** Audio player; a failed load shows a refresh button (seed 001 §8 "Audio load fails"). */
export function AudioMessage({ message }: Props) {
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const url = safeMediaSrc(message.audio?.audioUrl);
  if (!url) return <Typography variant="body2">Áudio</Typography>;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <audio key={attempt} controls preload="none" src={url} onError={() => setFailed(true)} style={{ maxWidth: 260 }} aria-label="Áudio" />
      {failed && (
        <IconButton size="small" aria-label="Recarregar áudio" onClick={() => { setFailed(false); setAttempt((a) => a + 1); }}>
          <RefreshIcon fontSize="small" />
        </IconButton>
      )}
    </Box>
  );
}

/** Video with caption and download. */
export function VideoMessage({ message }: Props) {
  const url = safeMediaSrc(message.video?.videoUrl);
  const caption = message.video?.caption ?? message.caption;
  return (
    <Box>
      {url ? <video controls preload="metadata" src={url} style={{ maxWidth: 280, borderRadius: 4, display: 'block' }} aria-label="Vídeo" /> : <Typography variant="body2">Vídeo</Typography>}
      {caption && <Typography variant="body2" sx={{ mt: 0.5 }}><RichText text={caption} /></Typography>}
      {url && (
        <Link href={url} download={message.video?.fileName ?? true} variant="caption" sx={{ display: 'inline-flex', alignItems: 'center' }}>
          <DownloadIcon fontSize="inherit" /> Baixar
        </Link>
      )}
    </Box>
  );
}

/** Document with its name cut at 15 characters (seed 001 §2). */
export function DocumentMessage({ message }: Props) {
  const doc = message.document ?? (message.attachments?.[0] ? { documentUrl: message.attachments[0].url, fileName: message.attachments[0].filename, mimeType: message.attachments[0].mimeType } : null);
  const name = doc?.fileName ?? 'Documento';
  const url = safeHref(doc?.documentUrl);
  return (
    <Box>
      <Button component="a" href={url} target="_blank" rel="noopener noreferrer" download={name} startIcon={<DescriptionIcon />} variant="outlined" size="small" title={name} sx={{ textTransform: 'none' }} disabled={!url}>
        {truncate(name, LIMITS.fileNameDisplay)}
      </Button>
      {message.caption && <Typography variant="body2" sx={{ mt: 0.5 }}><RichText text={message.caption} /></Typography>}
    </Box>
  );
}

/** Sticker image, small and without a frame. */
export function StickerMessage({ message }: Props) {
  const url = safeMediaSrc(message.sticker?.stickerUrl);
  return url ? <Box component="img" src={url} alt="Sticker" loading="lazy" sx={{ width: 128, height: 128, objectFit: 'contain' }} /> : <Typography variant="body2">Sticker</Typography>;
}
