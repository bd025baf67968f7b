import { useEffect, useMemo } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, TextField, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import DescriptionIcon from '@mui/icons-material/Description';
import AudiotrackIcon from '@mui/icons-material/Audiotrack';
import { messages as seedTexts } from '@atendimento/schemas';
import { formatBytes, truncate } from '../../ui/format';
import { LIMITS } from '../../ui/constants';
import { texts } from '../../ui/texts';
import { uploadKindOf } from './uploads';

export interface PendingUpload {
  file: File;
  caption: string;
}

function Thumb({ file }: { file: File }) {
  const kind = uploadKindOf(file);
  // Object URLs only where the browser can make them (jsdom cannot).
  const url = useMemo(() => (kind === 'image' || kind === 'video') && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null, [file, kind]);
  useEffect(() => () => { if (url) URL.revokeObjectURL(url); }, [url]);
  if (kind === 'image' && url) return <Box component="img" src={url} alt={file.name} sx={{ width: 96, height: 96, objectFit: 'cover', borderRadius: 1 }} />;
  if (kind === 'video' && url) return <Box component="video" src={url} sx={{ width: 96, height: 96, borderRadius: 1 }} />;
  return (
    <Box sx={{ width: 96, height: 96, display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: '#eceff1', borderRadius: 1 }}>
      {kind === 'audio' ? <AudiotrackIcon fontSize="large" /> : <DescriptionIcon fontSize="large" />}
    </Box>
  );
}

/**
 * 'Pré-visualizar' (seed 001 §2 "Other dialogs"): the files about to be sent, each with its
 * caption ('Insira uma legenda') and a remove button; 'Enviar' sends them one by one.
 */
export function AttachmentPreview(props: { uploads: PendingUpload[]; onChange: (uploads: PendingUpload[]) => void; onCancel: () => void; onSend: () => void }) {
  const { uploads } = props;
  return (
    <Dialog open={uploads.length > 0} onClose={props.onCancel} maxWidth="md" slotProps={{
      paper: { sx: { width: '100%', maxWidth: 500, mx: 1 } }
    }}>
      <DialogTitle>{texts.composer.preview}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {uploads.map((u, i) => (
          <Box key={`${u.file.name}-${i}`} sx={{ display: 'flex', gap: 2, alignItems: 'center' }} data-upload={u.file.name}>
            <Thumb file={u.file} />
            <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 1 }}>
              <Typography variant="body2" title={u.file.name}>{truncate(u.file.name, LIMITS.fileNameDisplay * 3)} ({formatBytes(u.file.size)})</Typography>
              <TextField
                size="small"
                placeholder={seedTexts.chat.captionPlaceholder}
                value={u.caption}
                onChange={(e) => props.onChange(uploads.map((x, j) => (j === i ? { ...x, caption: e.target.value } : x)))}
                slotProps={{
                  htmlInput: { 'aria-label': `${seedTexts.chat.captionPlaceholder} ${u.file.name}` }
                }}
              />
            </Box>
            <IconButton aria-label={`${texts.composer.remove} ${u.file.name}`} onClick={() => props.onChange(uploads.filter((_, j) => j !== i))}>
              <CloseIcon />
            </IconButton>
          </Box>
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{texts.composer.cancel}</Button>
        <Button variant="contained" onClick={props.onSend}>{texts.composer.confirm}</Button>
      </DialogActions>
    </Dialog>
  );
}
