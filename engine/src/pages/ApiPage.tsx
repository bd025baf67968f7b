import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { messages } from '@atendimento/schemas';
import { apiRequest, ApiError } from '../api/api';
import { showToast } from '../ui/toast';

const text = messages.integrations;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** An API token as GET /api/api-tokens lists it (never the token itself). */
export interface ApiTokenInfo {
  id: string;
  name: string;
  prefix: string;
  urls: string[];
  methods: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('pt-BR') : '—');

/**
 * The API screen (seed 000 §2 "API", 002 §7; docs/api.md): the API URL, the access token with
 * copy ('Token copiado') and generate new ('Token gerado'), the token's scope, the tokens
 * generated so far (revocable) and the link to the OpenAPI description. The server stores only
 * hashes, so a token is shown once, right after it is generated. Admin-only, with the tenant's
 * api setting: the route guard hides it, and the server refuses the calls otherwise.
 */
export function ApiPage({ origin = window.location.origin }: { origin?: string }) {
  const [tokens, setTokens] = useState<ApiTokenInfo[] | null>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  const [name, setName] = useState('api');
  const [urls, setUrls] = useState('/api/contacts');
  const [methods, setMethods] = useState<string[]>(['GET']);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const { body } = await apiRequest<{ data: ApiTokenInfo[] }>('/api/api-tokens');
      setTokens(body.data);
    } catch {
      setTokens([]);
    }
  }, []);
  useEffect(() => void load(), [load]);

  async function generate() {
    setConfirming(false);
    setBusy(true);
    setErrors({});
    try {
      const body = { id: name.trim(), urls: urls.split('\n').map((u) => u.trim()).filter(Boolean), methods };
      const { body: answer } = await apiRequest<{ data: ApiTokenInfo & { token: string } }>('/api/api-tokens', { method: 'POST', body, notify: false });
      setFresh(answer.data.token);
      showToast(messages.api.tokenGenerated, 'success');
      await load();
    } catch (error) {
      if (error instanceof ApiError && error.fields.length) setErrors(Object.fromEntries(error.fields.map((f) => [f.field, f.message])));
      else showToast(error instanceof Error ? error.message : messages.errors.internal, 'error');
    } finally {
      setBusy(false);
    }
  }

  function requestGenerate() {
    const replaces = tokens?.some((t) => t.name === name.trim() && !t.revokedAt);
    if (replaces) setConfirming(true);
    else void generate();
  }

  async function copy() {
    if (!fresh) return;
    try {
      await navigator.clipboard.writeText(fresh);
      showToast(messages.api.tokenCopied, 'success');
    } catch {
      showToast(messages.table.copyFailed, 'error');
    }
  }

  async function revoke(id: string) {
    await apiRequest(`/api/api-tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
    showToast(text.apiTokenRevoked, 'success');
    await load();
  }

  const hasActive = tokens?.some((t) => !t.revokedAt) ?? false;
  const toggle = (method: string) => setMethods((list) => (list.includes(method) ? list.filter((m) => m !== method) : [...list, method]));

  return (
    <Paper sx={{ p: 3, maxWidth: 960, mx: 'auto', mt: 2 }}>
      <Typography variant="h5" component="h2" gutterBottom>
        {text.apiTitle}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2 }}>
        <TextField label={text.apiUrl} value={`${origin}/api`} slotProps={{ input: { readOnly: true } }} fullWidth />
        <TextField
          label={text.apiToken}
          value={fresh ?? ''}
          placeholder={hasActive ? text.apiTokenHidden : text.apiNoToken}
          helperText={fresh ? text.apiShownOnce : hasActive ? text.apiTokenHidden : text.apiNoToken}
          fullWidth
          slotProps={{
            inputLabel: { shrink: true },
            input: {
              readOnly: true,
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton aria-label={text.apiCopy} onClick={() => void copy()} disabled={!fresh} edge="end">
                    <ContentCopy />
                  </IconButton>
                </InputAdornment>
              ),
            },
          }}
        />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '1fr 1fr' } }}>
          <TextField label={text.apiTokenName} value={name} onChange={(e) => setName(e.target.value)} error={Boolean(errors.id)} helperText={errors.id ?? text.apiTokenNameHelp} />
          <TextField
            label={text.apiScopeUrls}
            value={urls}
            onChange={(e) => setUrls(e.target.value)}
            multiline
            minRows={2}
            error={Boolean(errors.urls)}
            helperText={errors.urls ?? text.apiScopeUrlsHelp}
          />
        </Box>
        <Box>
          <FormLabel component="legend">{text.apiScopeMethods}</FormLabel>
          <FormGroup row>
            {METHODS.map((method) => (
              <FormControlLabel key={method} control={<Checkbox checked={methods.includes(method)} onChange={() => toggle(method)} />} label={method} />
            ))}
          </FormGroup>
          {errors.methods && <FormHelperText error>{errors.methods}</FormHelperText>}
        </Box>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <Button variant="contained" onClick={requestGenerate} disabled={busy}>
            {text.apiGenerate}
          </Button>
          <Link href="/api/openapi.json" target="_blank" rel="noopener">
            {text.apiDocs}
          </Link>
        </Box>
      </Box>

      <Typography variant="h6" component="h3" sx={{ mt: 4, mb: 1 }}>
        {text.apiTokens}
      </Typography>
      {tokens && tokens.length === 0 ? (
        <Alert severity="info">{text.apiNoToken}</Alert>
      ) : (
        <Table size="small" aria-label={text.apiTokens}>
          <TableHead>
            <TableRow>
              <TableCell>{text.apiTokenName}</TableCell>
              <TableCell>{text.apiTokenPrefix}</TableCell>
              <TableCell>{text.apiScopeUrls}</TableCell>
              <TableCell>{text.apiScopeMethods}</TableCell>
              <TableCell>{text.apiCreatedAt}</TableCell>
              <TableCell>{text.apiLastUsed}</TableCell>
              <TableCell>{text.apiStatus}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(tokens ?? []).map((token) => (
              <TableRow key={token.id}>
                <TableCell>{token.name}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{token.prefix}…</TableCell>
                <TableCell>{token.urls.join(', ')}</TableCell>
                <TableCell>{token.methods.join(', ')}</TableCell>
                <TableCell>{when(token.createdAt)}</TableCell>
                <TableCell>{when(token.lastUsedAt)}</TableCell>
                <TableCell>
                  {token.revokedAt ? (
                    text.apiRevokedStatus
                  ) : (
                    <Button size="small" color="error" onClick={() => void revoke(token.id)} aria-label={`${text.apiRevoke} ${token.name}`}>
                      {text.apiRevoke}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      <Dialog open={confirming} onClose={() => setConfirming(false)}>
        <DialogContent>{text.apiConfirmRegenerate}</DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>{text.apiCancel}</Button>
          <Button variant="contained" onClick={() => void generate()}>
            {text.apiConfirm}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}
