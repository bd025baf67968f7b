import { lazy, Suspense, useState } from 'react';
import type { DialogProps } from '@mui/material/Dialog';
import type { DrawerProps } from '@mui/material/Drawer';
import type { MenuProps } from '@mui/material/Menu';

// MUI's Menu, Dialog and Drawer bring Modal, Popover, the focus trap, the backdrop and their
// transitions (~10 kB gzip): on the first screen nothing of them shows until a click, so they
// load the first time one opens (tests/bench B10b, docs/console.md "Loading").
const Menu = lazy(() => import('@mui/material/Menu'));
const Dialog = lazy(() => import('@mui/material/Dialog'));
const Drawer = lazy(() => import('@mui/material/Drawer'));

/** True from the first time `open` was true: once loaded, the overlay stays mounted for its closing transition. */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/** MUI's Menu, loaded when it first opens. */
export function LazyMenu(props: MenuProps) {
  return useOpenedOnce(props.open) ? (
    <Suspense fallback={null}>
      <Menu {...props} />
    </Suspense>
  ) : null;
}

/** MUI's Dialog, loaded when it first opens. */
export function LazyDialog(props: DialogProps) {
  return useOpenedOnce(props.open) ? (
    <Suspense fallback={null}>
      <Dialog {...props} />
    </Suspense>
  ) : null;
}

/** MUI's temporary Drawer, loaded when it first opens. */
export function LazyDrawer(props: DrawerProps) {
  return useOpenedOnce(Boolean(props.open)) ? (
    <Suspense fallback={null}>
      <Drawer {...props} />
    </Suspense>
  ) : null;
}
