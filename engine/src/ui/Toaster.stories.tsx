import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react';
import Button from '@mui/material/Button';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { Toaster } from './Toaster';
import { clearToasts, showToast, type ToastSeverity } from './toast';
import { theme } from './theme';

type Props = Parameters<typeof Toaster>[0] & { toasts?: { message: string; severity: ToastSeverity }[] };

/** The toaster alone (no StoryShell, which has its own), with the given toasts raised on mount. */
function Harness({ toasts = [], ...props }: Props) {
  useState(() => {
    clearToasts();
    for (const toast of toasts) showToast(toast.message, toast.severity);
  });
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Button sx={{ m: 2 }} variant="outlined" onClick={() => showToast('Registro Salvo!', 'success')}>
        Mostrar aviso
      </Button>
      <Toaster {...props} />
    </ThemeProvider>
  );
}

const meta = {
  title: 'Interface/Avisos (toasts)',
  component: Toaster,
  render: (args) => <Harness {...args} />,
  args: {
    toasts: [
      { message: 'Você não tem permissão para acessar este recurso.', severity: 'error' },
      { message: 'Perfil atualizado!', severity: 'success' },
    ],
  } as Props,
} satisfies Meta<Props>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The default corner: top right. */
export const TopRight: Story = {};

/** A tenant configured for the bottom left. */
export const BottomLeft: Story = { args: { position: 'bottom-left' } };
