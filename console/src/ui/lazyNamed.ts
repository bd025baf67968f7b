import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A lazy component from a module's named export — our screens export by name, React.lazy wants
 * a default: `lazyNamed(() => import('./pages/ApiPage'), 'ApiPage')`. The import stays a literal
 * `import()` at the call site, so the bundler still makes the chunk.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound
export function lazyNamed<M extends { [key in K]: ComponentType<any> }, K extends keyof M>(load: () => Promise<M>, name: K): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }));
}
