import { lazy, useState, type ComponentType } from 'react';
import type { DialogProps } from '@mui/material/Dialog';
import type { DrawerProps } from '@mui/material/Drawer';
import type { MenuProps } from '@mui/material/Menu';
import { LazyPart } from './LazyPart';

/** True from the first time `open` was true: once loaded, the overlay stays mounted for its closing transition. */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/** `load`'s component, rendered (and so fetched) from the first time its `open` prop is true. */
export function openedLazily<P extends { open?: boolean }>(load: () => Promise<{ default: ComponentType<P> }>) {
  const Overlay = lazy(load);
  return function LazyOverlay(props: P) {
    return useOpenedOnce(Boolean(props.open)) ? (
      <LazyPart>
        <Overlay {...props} />
      </LazyPart>
    ) : null;
  };
}

// MUI's Menu, Dialog and Drawer bring Modal, Popover, the focus trap, the backdrop and their
// transitions (~10 kB gzip): on the first screen nothing of them shows until a click, so they
// load the first time one opens (tests/bench B10b, docs/console.md "Loading").

/** MUI's Menu, loaded when it first opens. */
export const LazyMenu = openedLazily<MenuProps>(() => import('@mui/material/Menu'));
/** MUI's Dialog, loaded when it first opens. */
export const LazyDialog = openedLazily<DialogProps>(() => import('@mui/material/Dialog'));
/** MUI's temporary Drawer, loaded when it first opens. */
export const LazyDrawer = openedLazily<DrawerProps>(() => import('@mui/material/Drawer'));
