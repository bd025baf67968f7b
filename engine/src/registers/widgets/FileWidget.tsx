import { useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import UploadFile from '@mui/icons-material/UploadFile';
import type { WidgetProps } from '@rjsf/utils';
import { messages } from '@atendimento/schemas';
import { apiRequest, ApiError } from '../../api/api';

/** Extensions the upload accepts (seed 000 §5); the server checks the content too. */
export const UPLOAD_ACCEPT = '.png,.jpg,.jpeg,.ogg,.pdf,.doc,.docx,.xlsx,.csv,.odt,.ods';

type Kind = 'any' | 'image' | 'pdf';

/** POST /api/upload (seed 000 §7): answers data.file.imageUrl or documentUrl. */
export async function uploadFile(file: File, kind: Kind): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  const { body } = await apiRequest<{ data: { file: { imageUrl?: string; documentUrl?: string } } }>(`/api/upload${kind === 'any' ? '' : `?accept=${kind}`}`, {
    method: 'POST',
    body: form,
    notify: false,
  });
  return body.data.file.imageUrl ?? body.data.file.documentUrl ?? '';
}

function FileInput({ id, value, label, disabled, readonly, onChange, options, rawErrors, kind }: WidgetProps & { kind: Kind }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const url = typeof value === 'string' ? value : '';
  const accept = kind === 'pdf' ? 'application/pdf,.pdf' : kind === 'image' ? 'image/png,image/jpeg,.png,.jpg,.jpeg' : UPLOAD_ACCEPT;
  const preview = Boolean(options.preview) && kind === 'image' && url;

  async function pick(file: File | undefined) {
    if (!file) return;
    if (kind === 'pdf' && file.type !== 'application/pdf' && !/\.pdf$/i.test(file.name)) {
      setError(messages.registers.pdfOnly);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onChange(await uploadFile(file, kind));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : messages.errors.internal);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  }

  return (
    <Box>
      <Typography variant="body2" color="text.secondary" component="label" htmlFor={id}>
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 0.5 }}>
        {preview && <Box component="img" src={url} alt={label} sx={{ width: 64, height: 64, objectFit: 'cover', borderRadius: 1 }} />}
        <Button variant="outlined" size="small" startIcon={<UploadFile />} disabled={disabled || readonly || busy} onClick={() => input.current?.click()}>
          {messages.registers.upload}
        </Button>
        {url && !preview && (
          <Link href={url} target="_blank" rel="noreferrer">
            {messages.registers.openFile}
          </Link>
        )}
        {url && !(disabled || readonly) && (
          <Button size="small" color="inherit" onClick={() => onChange(undefined)}>
            {messages.registers.remove}
          </Button>
        )}
        <input ref={input} id={id} type="file" hidden accept={accept} aria-label={label} onChange={(event) => void pick(event.target.files?.[0])} />
      </Box>
      {busy && <LinearProgress sx={{ mt: 1 }} />}
      {(error || rawErrors?.length) && <FormHelperText error>{error ?? rawErrors?.[0]}</FormHelperText>}
    </Box>
  );
}

/** A file kept as its uploaded URL (`ui:options.accept`: 'image' for photos). */
export function FileWidget(props: WidgetProps) {
  const kind: Kind = props.options.accept === 'image' ? 'image' : props.options.accept === 'pdf' ? 'pdf' : 'any';
  return <FileInput {...props} kind={kind} />;
}

/** The PDF document uploader: application/pdf only. */
export function PdfWidget(props: WidgetProps) {
  return <FileInput {...props} kind="pdf" />;
}
