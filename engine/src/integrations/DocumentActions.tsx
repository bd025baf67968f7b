import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Description from '@mui/icons-material/Description';
import { messages } from '@atendimento/schemas';
import { apiRequest, authedFetch, ApiError } from '../api/api';
import { dismissToast, showToast } from '../ui/toast';

interface Generated {
  status: number;
  url: string | null;
  fileName: string;
}

/**
 * The call-to-action buttons of an integration record (seed 000 §4, §7): 'Aguarde! Gerando
 * documento...', then the document in a dialog (preview and download) when the ERP answered
 * 200/201 with a link; 'Falha ao gerar o documento' when it did not; 'Erro na requisição' for
 * any other status.
 */
export function DocumentActions({ collection, id, documents }: { collection: string; id: string; documents: { index: number; label: string }[] }) {
  const [busy, setBusy] = useState(false);
  const [file, setFile] = useState<{ url: string; fileName: string } | null>(null);

  async function generate(index: number) {
    setBusy(true);
    const waiting = showToast(messages.documents.generating, 'info');
    try {
      const { body, response } = await apiRequest<{ data: Generated }>(`/api/integration/${encodeURIComponent(collection)}/${encodeURIComponent(id)}/documents/${index}`, { method: 'POST', notify: false });
      const doc = body.data;
      if ((response.status === 200 || response.status === 201) && doc?.url) {
        const res = await authedFetch(doc.url);
        if (!res.ok) throw new ApiError(res.status, null, messages.documents.requestError);
        setFile({ url: URL.createObjectURL(await res.blob()), fileName: doc.fileName });
      } else {
        showToast(messages.documents.failed, 'error');
      }
    } catch (error) {
      console.warn('document generation failed', error);
      // The ERP refused (4xx from the server): the document failed; anything else: the request did.
      showToast(error instanceof ApiError && error.status >= 400 && error.status < 500 ? messages.documents.failed : messages.documents.requestError, 'error');
    } finally {
      dismissToast(waiting);
      setBusy(false);
    }
  }

  function close() {
    if (file) URL.revokeObjectURL(file.url);
    setFile(null);
  }

  if (documents.length === 0) return null;
  return (
    <>
      {documents.map((doc) => (
        <Button key={doc.index} startIcon={<Description />} disabled={busy} onClick={() => void generate(doc.index)}>
          {doc.label}
        </Button>
      ))}
      <Dialog open={file !== null} onClose={close} fullWidth maxWidth="lg">
        <DialogTitle>{file?.fileName}</DialogTitle>
        <DialogContent sx={{ height: '75vh' }}>{file && <iframe title={file.fileName} src={file.url} style={{ width: '100%', height: '100%', border: 0 }} />}</DialogContent>
        <DialogActions>
          {file && (
            <Button component="a" href={file.url} download={file.fileName}>
              {messages.registers.download}
            </Button>
          )}
          <Button onClick={close}>{messages.registers.close}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
