import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { publicMenuRoutes, SCREEN_TABLE } from '@atendimento/schemas';
import { useAppConfig } from '../boot/AppConfigContext';
import { RouteLink, useLocation } from '../navigation/NavigationContext';

/**
 * The frame of the public screens (no app chrome): the tenant's logo and background from
 * `assets`, a card, and the public header menu (seed 002 §2: public-menu routes whose claim is on).
 */
export function PublicLayout({ title, children, width = 420 }: { title?: string; children: ReactNode; width?: number }) {
  const config = useAppConfig();
  const { pathname } = useLocation();
  const menu = publicMenuRoutes(SCREEN_TABLE, config).filter((route) => route.path !== pathname);
  const background = config.assets?.backgroundUrl
    ? { backgroundImage: `url(${JSON.stringify(config.assets.backgroundUrl)})`, backgroundSize: 'cover', backgroundPosition: 'center' }
    : { background: 'linear-gradient(135deg, #1976D2 0%, #0d47a1 55%, #01b882 100%)' };
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, ...background }}>
      <Paper elevation={6} sx={{ width: '100%', maxWidth: width, p: { xs: 3, sm: 4 } }}>
        <Stack spacing={2} sx={{
          alignItems: "stretch"
        }}>
          <Box sx={{ textAlign: 'center' }}>
            {config.assets?.logoUrl ? (
              <Box component="img" src={config.assets.logoUrl} alt={config.name} sx={{ maxHeight: 64, maxWidth: '100%' }} />
            ) : (
              <Typography variant="h6" component="p" color="primary" sx={{ fontWeight: 700 }}>
                {config.name}
              </Typography>
            )}
          </Box>
          {title && (
            <Typography variant="h5" component="h1" sx={{
              textAlign: "center"
            }}>
              {title}
            </Typography>
          )}
          {children}
          {menu.length > 0 && (
            <Stack component="nav" direction="row" spacing={2} sx={{
              justifyContent: "center"
            }}>
              {menu.map((route) => (
                <Link key={route.path} component={RouteLink} to={route.path} underline="hover">
                  {route.name}
                </Link>
              ))}
            </Stack>
          )}
        </Stack>
      </Paper>
    </Box>
  );
}
