import { useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Description from '@mui/icons-material/Description';
import { messages } from '@atendimento/schemas';
import { INTEGRATION_MESSAGES, orderedFields } from '@atendimento/schemas/integrations/index';
import type { RegisterSchema } from '@atendimento/schemas/registers/index';
import { apiRequest, authedFetch, ApiError } from '../api/api';
import { dismissToast, showToast } from '../ui/toast';

interface Generated {
  status: number;
  url: string | null;
  fileName: string;
}

type ParamValues = Record<string, string | boolean>;

const typeOf = (schema: RegisterSchema) => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

/** The dialog's values as the params schema types them (empty fields are left out). */
function typedParams(schema: RegisterSchema, values: ParamValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const type = typeOf(schema.properties?.[key] ?? {});
    if (value === '') continue;
    out[key] = (type === 'number' || type === 'integer') && typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
  }
  return out;
}

/**
 * The parameters asked before a document is sent (seed 001 "buttons (label, params schema)",
 * the integration's vjsfSchemaParams): one field per scalar property, in `order`; the server
 * validates them with the schema and its messages come back under the fields.
 */
function ParamsDialog({ schema, title, errors, busy, onCancel, onSend }: { schema: RegisterSchema; title: string; errors: Record<string, string>; busy: boolean; onCancel: () => void; onSend: (values: ParamValues) => void }) {
  const fields = orderedFields(schema).filter((key) => ['string', 'number', 'integer', 'boolean'].includes(typeOf(schema.properties![key]!) ?? ''));
  const [values, setValues] = useState<ParamValues>(() =>
    Object.fromEntries(fields.map((key) => { const p = schema.properties![key]!; return [key, p.default !== undefined ? (typeof p.default === 'boolean' ? p.default : String(p.default)) : typeOf(p) === 'boolean' ? false : '']; })),
  );
  const set = (key: string, value: string | boolean) => setValues((v) => ({ ...v, [key]: value }));
  return (
    <Dialog open onClose={onCancel} fullWidth maxWidth="sm" aria-labelledby="document-params-title">
      <DialogTitle id="document-params-title">{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {fields.map((key) => {
            const property = schema.properties![key]!;
            const label = `${typeof property.title === 'string' ? property.title : key}${schema.required?.includes(key) ? ' *' : ''}`;
            const type = typeOf(property);
            if (type === 'boolean') {
              return <FormControlLabel key={key} control={<Checkbox checked={values[key] === true} onChange={(e) => set(key, e.target.checked)} />} label={label} />;
            }
            const options = Array.isArray(property.enum) ? (property.enum as unknown[]) : null;
            return (
              <TextField
                key={key}
                label={label}
                value={values[key] ?? ''}
                onChange={(e) => set(key, e.target.value)}
                type={type === 'number' || type === 'integer' ? 'number' : 'text'}
                select={Boolean(options)}
                error={Boolean(errors[key])}
                helperText={errors[key] ?? (typeof property.description === 'string' ? property.description : undefined)}
                fullWidth
              >
                {options?.map((option) => (
                  <MenuItem key={String(option)} value={String(option)}>
                    {String(option)}
                  </MenuItem>
                ))}
              </TextField>
            );
          })}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{messages.shell.cancel}</Button>
        <Button variant="contained" disabled={busy} onClick={() => onSend(values)}>
          {messages.shell.send}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The call-to-action buttons of an integration record (seed 000 §4, §7): 'Aguarde! Gerando
 * documento...', then the document in a dialog (preview and download) when the ERP answered
 * 200/201 with a link; 'Falha ao gerar o documento' when it did not; 'Erro na requisição' for
 * any other status. With a params schema (vjsfSchemaParams) the parameters are asked first.
 */
export function DocumentActions({
  collection,
  id,
  documents,
  paramsSchema = null,
}: {
  collection: string;
  id: string;
  documents: { index: number; label: string }[];
  paramsSchema?: RegisterSchema | null;
}) {
  const [busy, setBusy] = useState(false);
  const [file, setFile] = useState<{ url: string; fileName: string } | null>(null);
  const [asking, setAsking] = useState<{ index: number; label: string; errors: Record<string, string> } | null>(null);

  async function generate(index: number, params?: Record<string, unknown>) {
    setBusy(true);
    const waiting = showToast(messages.documents.generating, 'info');
    try {
      const { body, response } = await apiRequest<{ data: Generated }>(`/api/integration/${encodeURIComponent(collection)}/${encodeURIComponent(id)}/documents/${index}`, {
        method: 'POST',
        notify: false,
        ...(params && { body: { params } }),
      });
      setAsking(null);
      const doc = body.data;
      if ((response.status === 200 || response.status === 201) && doc?.url) {
        const res = await authedFetch(doc.url);
        if (!res.ok) throw new ApiError(res.status, null, messages.documents.requestError);
        setFile({ url: URL.createObjectURL(await res.blob()), fileName: doc.fileName });
      } else {
        showToast(messages.documents.failed, 'error');
      }
    } catch (error) {
      // The parameters were refused: the messages go under the dialog's fields.
      if (params && error instanceof ApiError && error.status === 400 && error.fields.length) {
        setAsking((current) => current && { ...current, errors: Object.fromEntries(error.fields.map((f) => [f.field, f.message])) });
        return;
      }
      setAsking(null);
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
        <Button
          key={doc.index}
          startIcon={<Description />}
          disabled={busy}
          onClick={() => (paramsSchema ? setAsking({ index: doc.index, label: doc.label, errors: {} }) : void generate(doc.index))}
        >
          {doc.label}
        </Button>
      ))}
      {asking && paramsSchema && (
        <ParamsDialog
          schema={paramsSchema}
          title={`${asking.label} · ${INTEGRATION_MESSAGES.paramsTitle}`}
          errors={asking.errors}
          busy={busy}
          onCancel={() => setAsking(null)}
          onSend={(values) => void generate(asking.index, typedParams(paramsSchema, values))}
        />
      )}
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
