import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';

/**
 * A lazily loaded part of a screen that is not the screen itself — an overlay, a hint, a
 * snackbar: nothing while its chunk loads, and nothing if the chunk cannot be fetched (the
 * connection dropped, a new deploy replaced the files). Without it such a failure reached the
 * nearest error boundary, which for the toolbar and the drawer is none: the whole app went
 * blank because a menu could not load. A reload fetches it again.
 */
export class LazyPart extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('lazy part failed', error, info.componentStack);
  }

  render() {
    return this.state.failed ? null : <Suspense fallback={null}>{this.props.children}</Suspense>;
  }
}
