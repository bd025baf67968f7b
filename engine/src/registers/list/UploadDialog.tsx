import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import { messages } from '@atendimento/schemas';
import { ApiError } from '../../api/api';
import { copyText } from '../widgets/ImageViewWidget';
import { UPLOAD_ACCEPT, uploadFile } from '../widgets/FileWidget';
import { FilePicker } from './FilePicker';

/** 'Arquivo enviado: {url}' with the address as a link. */
const [uploadDoneBefore, uploadDoneAfter] = messages.registers.uploadDone.split('{url}') as [string, string];

/** The toolbar's image/file upload (seed 000 §2): sends one file, shows its link to copy. */
export function UploadDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const close = () => {
    setUrl(null);
    setFileName(null);
    setError(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm">
      <DialogTitle>{messages.registers.uploadTitle}</DialogTitle>
      <DialogContent>
        <FilePicker
          label={messages.registers.upload}
          accept={UPLOAD_ACCEPT}
          fileName={fileName}
          disabled={busy}
          onPick={async (file) => {
            if (!file) return;
            setFileName(file.name);
            setBusy(true);
            setError(null);
            setUrl(null);
            try {
              setUrl(await uploadFile(file, 'any'));
            } catch (failure) {
              setError(failure instanceof ApiError ? failure.message : messages.errors.internal);
            } finally {
              setBusy(false);
            }
          }}
        />
        {busy && <LinearProgress sx={{ mt: 2 }} />}
        {url && (
          <Alert severity="success" sx={{ mt: 2 }} action={<Button size="small" onClick={() => void copyText(new URL(url, location.href).href)}>{messages.registers.copyLink}</Button>}>
            {uploadDoneBefore}
            <Link href={url} target="_blank" rel="noreferrer">
              {url}
            </Link>
            {uploadDoneAfter}
          </Alert>
        )}
        {error && <Alert severity="error" sx={{ mt: 2 }}>{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{messages.registers.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
