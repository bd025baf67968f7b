import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { messages, type AppConfig } from '@atendimento/schemas';

/** The footer credit (seed 000 §1): name and link from the tenant configuration. */
export function FooterCredit({ footer }: { footer: AppConfig['footer'] }) {
  if (!footer?.name) return null;
  const external = /^https?:\/\//.test(footer.link ?? '');
  return (
    <Box component="footer" sx={{ py: 1, textAlign: 'center' }}>
      <Typography variant="caption" color="text.secondary">
        {messages.shell.footerCredit}{' '}
        {footer.link ? (
          // A plain anchor in MUI Link's colours: Link's module is not otherwise on the first screen (tests/bench B10b).
          <Box component="a" href={footer.link} {...(external && { target: '_blank', rel: 'noopener noreferrer' })} sx={{ color: 'primary.main', textDecorationColor: (theme) => alpha(theme.palette.primary.main, 0.4), '&:hover': { textDecorationColor: 'inherit' } }}>
            {footer.name}
          </Box>
        ) : (
          footer.name
        )}
      </Typography>
    </Box>
  );
}
