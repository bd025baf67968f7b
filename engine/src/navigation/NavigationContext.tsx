import { createContext, forwardRef, useCallback, useContext, useEffect, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { browserNavigation, type AppLocation, type Navigation } from './navigation';

const NavigationContext = createContext<Navigation | null>(null);

let browser: Navigation | undefined;
/** The browser's history, created on first use (one per page: it listens to popstate). */
function browserDefault(): Navigation {
  return (browser ??= browserNavigation(window));
}

/** Gives the tree below a navigation of its own (stories and specs: an in-memory history). */
export function NavigationProvider({ navigation, children }: { navigation: Navigation; children: ReactNode }) {
  return <NavigationContext.Provider value={navigation}>{children}</NavigationContext.Provider>;
}

/** The navigation in effect: the provided one, else the browser's history. */
export function useNavigation(): Navigation {
  return useContext(NavigationContext) ?? browserDefault();
}

/** The current location; the component renders again when it changes. */
export function useLocation(): AppLocation {
  const navigation = useNavigation();
  return useSyncExternalStore(navigation.subscribe, navigation.location, navigation.location);
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

/** A stable function that goes to an absolute path (`replace` keeps the history's length). */
export function useNavigate(): (to: string, options?: NavigateOptions) => void {
  const navigation = useNavigation();
  return useCallback((to, options) => (options?.replace ? navigation.replace(to, options.state) : navigation.push(to, options?.state)), [navigation]);
}

/** Goes to `to` once rendered (a guard's redirect). */
export function Navigate({ to, replace = false }: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

/**
 * An anchor to an app path (for MUI's `component` prop): a plain click navigates in place; a
 * click with a modifier, a middle click or a `target` is left to the browser (new tab...).
 */
export const RouteLink = forwardRef<HTMLAnchorElement, AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; replace?: boolean }>(function RouteLink(
  { to, replace, onClick, ...rest },
  ref,
) {
  const navigate = useNavigate();
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || rest.target || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(to, { replace });
  };
  return <a {...rest} ref={ref} href={to} onClick={click} />;
});
