import { createTheme, type ThemeOptions } from '@mui/material/styles';

/**
 * The app's MUI theme. Fonts are the system's: the content security policy only allows our own
 * origin, and a web font would add weight to the sign-in page.
 */
export const themeOptions: ThemeOptions = {
  palette: {
    primary: { main: '#1976D2' },
    secondary: { main: '#01b882' },
    background: { default: '#f4f6f8' },
  },
  typography: {
    fontFamily: 'Roboto, "Segoe UI", "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif',
  },
  shape: { borderRadius: 8 },
};

export const theme = createTheme(themeOptions);
