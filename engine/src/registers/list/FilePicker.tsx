import { useRef } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import { messages } from '@atendimento/schemas';

/**
 * A file chooser in Portuguese: the browser's own input says 'Choose File' / 'No file chosen'
 * in the browser's language, so it stays hidden behind a button and the chosen file's name.
 * The hidden input keeps `label` as its accessible name (tests and screen readers pick it).
 */
export function FilePicker({ label, accept, fileName, disabled, onPick }: { label: string; accept?: string; fileName: string | null; disabled?: boolean; onPick: (file: File | null) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
      <Button variant="outlined" size="small" startIcon={<AttachFile />} disabled={disabled} onClick={() => input.current?.click()}>
        {messages.registers.chooseFile}
      </Button>
      <Typography variant="body2" color={fileName ? 'text.primary' : 'text.secondary'} sx={{ wordBreak: 'break-all' }}>
        {fileName ?? messages.registers.noFileChosen}
      </Typography>
      <input
        ref={input}
        type="file"
        hidden
        accept={accept}
        aria-label={label}
        onChange={(event) => {
          onPick(event.target.files?.[0] ?? null);
          // Picking the same file again still fires onChange.
          event.target.value = '';
        }}
      />
    </Box>
  );
}
