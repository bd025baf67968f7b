import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { publicMessages as messages } from '@atendimento/schemas';

/** A centred spinner while start-up or a lazy chunk loads. */
export function LoadingScreen({ fullPage = true }: { fullPage?: boolean }) {
  return (
    <Box role="progressbar" aria-label={messages.shell.loading} sx={{ minHeight: fullPage ? '100vh' : 240, display: 'grid', placeItems: 'center' }}>
      <CircularProgress />
    </Box>
  );
}
