import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
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
          <Link href={footer.link} {...(external && { target: '_blank', rel: 'noopener noreferrer' })}>
            {footer.name}
          </Link>
        ) : (
          footer.name
        )}
      </Typography>
    </Box>
  );
}
