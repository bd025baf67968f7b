import { cloneElement, lazy, useEffect, useRef, useState, type FocusEvent, type PointerEvent, type ReactElement } from 'react';
import type { HintPlacement } from './HintPopper';
import { LazyPart } from './LazyPart';

export type { HintPlacement };

// Popper and popper.js (~10 kB gzip) load the first time a hint shows, not with the first screen.
const HintPopper = lazy(() => import('./HintPopper'));

/** MUI Tooltip's enter delay. */
const ENTER_DELAY_MS = 100;

export interface HintProps {
  title: string;
  placement?: HintPlacement;
  /** One element that takes pointer and focus handlers (an IconButton, a ListItemButton, a span). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any element's props
  children: ReactElement<any>;
}

type Handler<E> = ((event: E) => void) | undefined;
function chain<E>(own: Handler<E>, ours: (event: E) => void) {
  return (event: E) => {
    own?.(event);
    ours(event);
  };
}

/**
 * The tooltip of the always-visible icon buttons (drawer, chat list): MUI Tooltip's bubble and
 * timing — after 100 ms of hover or on keyboard focus, gone on leave or blur, not on touch — with
 * its Popper loaded on first use. The child gets the title as its aria-label when it has none,
 * as MUI Tooltip does. Dialogs and pages that load later keep MUI's Tooltip.
 */
export function Hint({ title, placement = 'bottom', children }: HintProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const show = (element: HTMLElement, delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setAnchor(element), delay);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setAnchor(null);
  };
  const props = children.props;
  const child = cloneElement(children, {
    'aria-label': props['aria-label'] ?? title,
    onPointerEnter: chain<PointerEvent<HTMLElement>>(props.onPointerEnter, (e) => e.pointerType !== 'touch' && show(e.currentTarget, ENTER_DELAY_MS)),
    onPointerLeave: chain<PointerEvent<HTMLElement>>(props.onPointerLeave, hide),
    // Keyboard focus only: a click focuses the button too, and MUI shows nothing for that.
    onFocus: chain<FocusEvent<HTMLElement>>(props.onFocus, (e) => e.currentTarget.matches(':focus-visible') && show(e.currentTarget, 0)),
    onBlur: chain<FocusEvent<HTMLElement>>(props.onBlur, hide),
  });
  return (
    <>
      {child}
      {anchor && (
        <LazyPart>
          <HintPopper anchorEl={anchor} title={title} placement={placement} />
        </LazyPart>
      )}
    </>
  );
}
