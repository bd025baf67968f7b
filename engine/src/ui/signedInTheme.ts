import { createTheme, type Theme } from '@mui/material/styles';
import { themeOptions } from './theme';

/**
 * The signed-in chrome and the console render outside react-admin's <Admin> (SignedInApp.tsx)
 * but must look like the registers beside them: these are the defaults react-admin's
 * `defaultLightTheme` gives (dense filled fields, list icon width, h6 weight, secondary shades),
 * under our options, so there is one look without loading react-admin on '/'. Its own module:
 * /login (which imports theme.ts) does not carry it.
 */
const fullWidthOnPhones = {
  variants: [{ props: {}, style: ({ theme }: { theme: Theme }) => ({ [theme.breakpoints.down('sm')]: { width: '100%' } }) }],
};
const denseFilled = { variant: 'filled' as const, margin: 'dense' as const, size: 'small' as const, fullWidth: true };
export const signedInTheme = createTheme({
  ...themeOptions,
  palette: { ...themeOptions.palette, secondary: { light: '#6ec6ff', main: '#01b882', dark: '#0069c0', contrastText: '#fff' } },
  typography: { ...themeOptions.typography, h6: { fontWeight: 400 } },
  components: {
    // MUI's own texts in pt-BR (those of @mui/material/locale's ptBR the first screen uses; the whole locale is ~1 kB more on '/'): screen readers read the button as 'Abrir', not 'Open'.
    MuiAutocomplete: { defaultProps: { fullWidth: true, openText: 'Abrir', closeText: 'Fechar', clearText: 'Limpar', noOptionsText: 'Sem opções', loadingText: 'Carregando…' }, ...fullWidthOnPhones },
    MuiAlert: { defaultProps: { closeText: 'Fechar' } },
    MuiTextField: { defaultProps: denseFilled, ...fullWidthOnPhones },
    MuiFormControl: { defaultProps: denseFilled },
    MuiListItemIcon: { styleOverrides: { root: { minWidth: 56 } } },
    MuiFilledInput: { styleOverrides: { root: { backgroundColor: 'rgba(0, 0, 0, 0.04)' } } },
  },
});
