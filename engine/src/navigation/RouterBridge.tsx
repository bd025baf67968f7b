import { startTransition, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { Router, type NavigationType, type Navigator, type To } from 'react-router';
import { joinPath } from './navigation';
import { useNavigation } from './NavigationContext';

const pathOf = (to: To) => (typeof to === 'string' ? to : joinPath(to));

/**
 * react-router's context fed by the app's navigation (navigation.ts): react-admin and the
 * screens under it read and change the same location as the chrome and the console. Only the
 * lazy chunks that need react-router import this module.
 *
 * The location reaches react-router inside `startTransition`, as react-router's own
 * BrowserRouter does: react-admin's list schedules its URL sync (filters, page) a tick after a
 * debounced change, and with synchronous updates a click on a row's 'Editar' during that tick
 * was followed by the list's stale push back to itself (seen under load in registers.e2e.ts).
 */
export function RouterBridge({ children }: { children: ReactNode }) {
  const navigation = useNavigation();
  const [state, setState] = useState(() => ({ location: navigation.location(), action: navigation.action() }));
  useLayoutEffect(() => {
    const sync = () => {
      const location = navigation.location();
      const action = navigation.action();
      startTransition(() => setState((current) => (current.location === location ? current : { location, action })));
    };
    // A change between this render and the subscription is not missed.
    sync();
    return navigation.subscribe(sync);
  }, [navigation]);
  const navigator = useMemo<Navigator>(
    () => ({
      createHref: pathOf,
      go: (delta) => navigation.go(delta),
      push: (to, state) => navigation.push(pathOf(to), state),
      replace: (to, state) => navigation.replace(pathOf(to), state),
    }),
    [navigation],
  );
  return (
    <Router location={state.location} navigationType={state.action as NavigationType} navigator={navigator}>
      {children}
    </Router>
  );
}
