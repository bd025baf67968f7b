import { useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress, IconButton, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { messages, quotesPaneId } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import { chatPaths } from '../../model/chatApi';
import { uiActions } from '../../store/consoleStores';
import { texts } from '../../ui/texts';

/**
 * The quotes portal of a chat's contact ('Orçamentos', seed 001 §8), framed in a pane beside the
 * chat. The server builds the address from the tenant's portal and the contact's ERP client, so
 * the pane never sees a portal for a contact its user may not read.
 */
export function QuotesPane({ paneId, roomId }: { paneId: string; roomId: string }) {
  const { api, stores } = useConsole();
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api
      .request<{ data: { url: string } }>(chatPaths.roomQuotes(roomId), { notify: false })
      .then(({ body }) => live && setUrl(body.data.url))
      .catch((failure: Error) => live && setError(failure.message));
    return () => {
      live = false;
    };
  }, [api, roomId]);
  return (
    <Box component="section" aria-label={messages.contact.quotes} sx={{ height: '100%', display: 'flex', flexDirection: 'column', bgcolor: '#fff', border: '1px solid #ddd' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', px: 1.5, py: 0.5, borderBottom: '1px solid #ddd' }}>
        <Typography variant="subtitle1" component="h2" sx={{ flex: 1, fontWeight: 600 }}>{messages.contact.quotes}</Typography>
        <IconButton size="small" aria-label={texts.drawer.close} onClick={() => uiActions.closeRoom(stores.ui, paneId)}><CloseIcon fontSize="small" /></IconButton>
      </Box>
      {error && <Alert severity="warning" sx={{ m: 1 }}>{error}</Alert>}
      {!error && !url && <CircularProgress sx={{ m: 'auto' }} aria-label={messages.contact.quotes} />}
      {url && (
        <iframe
          title={messages.contact.quotes}
          src={url}
          // The portal is another site: its scripts and forms run, in its own origin, without our page.
          sandbox="allow-scripts allow-forms allow-same-origin allow-popups allow-downloads"
          referrerPolicy="no-referrer"
          style={{ flex: 1, width: '100%', border: 0 }}
        />
      )}
    </Box>
  );
}

/** The drawer's 'Orçamentos' button: opens the portal beside the chat, or says the contact needs a client. */
export function QuotesButton({ roomId }: { roomId: string }) {
  const { api, stores, notify } = useConsole();
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    try {
      await api.request(chatPaths.roomQuotes(roomId), { notify: false });
      uiActions.openBeside(stores.ui, quotesPaneId(roomId), roomId);
    } catch (failure) {
      notify((failure as Error).message, 'warning');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ px: 1.5, pb: 1 }}>
      <Button fullWidth size="small" variant="outlined" disabled={busy} onClick={() => void open()}>{messages.contact.quotes}</Button>
    </Box>
  );
}
