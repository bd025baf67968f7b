import { useMemo, type ReactNode } from 'react';
import { Router, type NavigationType, type Navigator, type To } from 'react-router';
import { joinPath } from './navigation';
import { useLocation, useNavigation } from './NavigationContext';

const pathOf = (to: To) => (typeof to === 'string' ? to : joinPath(to));

/**
 * react-router's context fed by the app's navigation (navigation.ts): react-admin and the
 * screens under it read and change the same location as the chrome and the console. Only the
 * lazy chunks that need react-router import this module.
 */
export function RouterBridge({ children }: { children: ReactNode }) {
  const navigation = useNavigation();
  const location = useLocation();
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
    <Router location={location} navigationType={navigation.action() as NavigationType} navigator={navigator}>
      {children}
    </Router>
  );
}
