import { useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Slider from '@mui/material/Slider';
import { messages } from '@atendimento/schemas';
import { cropToJpeg, type PixelArea } from './cropImage';

/** Crops the chosen photo to a square and hands back a 512×512 JPEG data URL (seed 002 §5). */
export function AvatarCropDialog(props: { image: string | null; onCancel: () => void; onCropped: (jpegDataUrl: string) => Promise<void> | void; crop?: typeof cropToJpeg }) {
  const [position, setPosition] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<PixelArea | null>(null);
  const [saving, setSaving] = useState(false);
  const crop = props.crop ?? cropToJpeg;

  async function save() {
    if (!props.image || !area) return;
    setSaving(true);
    try {
      await props.onCropped(await crop(props.image, area));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog open={Boolean(props.image)} onClose={props.onCancel} fullWidth maxWidth="sm">
      <DialogTitle>{messages.shell.cropTitle}</DialogTitle>
      <DialogContent>
        <Box sx={{ position: 'relative', height: 320, bgcolor: 'grey.900', borderRadius: 1, overflow: 'hidden' }}>
          {props.image && (
            <Cropper
              image={props.image}
              crop={position}
              zoom={zoom}
              aspect={1}
              cropShape="round"
              showGrid={false}
              onCropChange={setPosition}
              onZoomChange={setZoom}
              onCropComplete={(_: Area, pixels: Area) => setArea(pixels)}
            />
          )}
        </Box>
        <Slider aria-label="Zoom" value={zoom} min={1} max={3} step={0.05} onChange={(_, value) => setZoom(value as number)} sx={{ mt: 2 }} />
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{messages.shell.cancel}</Button>
        <Button variant="contained" onClick={save} disabled={!area || saving}>
          {messages.shell.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
