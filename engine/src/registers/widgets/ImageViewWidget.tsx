import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { WidgetProps } from '@rjsf/utils';
import { messages } from '@atendimento/schemas';
import { showToast } from '../../ui/toast';

/** Copies text, answering whether it worked ('Copiado' / 'Falha ao copiar'). */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showToast(messages.table.copied, 'success');
  } catch {
    showToast(messages.table.copyFailed, 'error');
  }
}

/** A read-only image (a generated QR code) with copy link and download (seed 000 §2 image viewer). */
export function ImageViewWidget({ id, value, label }: WidgetProps) {
  const url = typeof value === 'string' ? value : '';
  const [broken, setBroken] = useState(false);
  return (
    <Box id={id}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      {url && !broken ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 0.5 }}>
          <Box component="img" src={url} alt={label} onError={() => setBroken(true)} sx={{ maxWidth: 160, maxHeight: 160, border: 1, borderColor: 'divider', borderRadius: 1 }} />
          <Button size="small" onClick={() => void copyText(url)}>
            {messages.registers.copyLink}
          </Button>
          <Button size="small" component="a" href={url} download>
            {messages.registers.download}
          </Button>
        </Box>
      ) : (
        <Typography variant="body2">{messages.registers.noImage}</Typography>
      )}
    </Box>
  );
}
