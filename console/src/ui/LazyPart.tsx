import { Component, Suspense, useSyncExternalStore, type ErrorInfo, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { publicMessages } from '@atendimento/schemas';

/**
 * The failed lazy parts mounted now, oldest first. Only the oldest shows the notice: after a
 * deploy every part the agent opens fails the same way, and one notice (one alert for a screen
 * reader) says it for all of them.
 */
const failed: symbol[] = [];
const listeners = new Set<() => void>();
function changeFailed(update: () => void) {
  update();
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Says a part of the screen could not load and offers the reload that fetches it again. */
function PartFailedNotice({ id }: { id: symbol }) {
  const first = useSyncExternalStore(subscribe, () => failed[0] === id);
  if (!first) return null;
  return (
    <Paper
      role="alert"
      elevation={6}
      sx={{ position: 'fixed', bottom: 16, left: '50%', transform: 'translateX(-50%)', zIndex: 1500, display: 'flex', alignItems: 'center', gap: 2, px: 2, py: 1, bgcolor: 'grey.900', color: 'common.white', maxWidth: 'calc(100vw - 32px)' }}
    >
      <span>{publicMessages.shell.partFailed}</span>
      <Button size="small" color="inherit" onClick={() => window.location.reload()}>
        {publicMessages.shell.reload}
      </Button>
    </Paper>
  );
}

/**
 * A lazily loaded part of a screen that is not the screen itself — an overlay, a hint, a
 * snackbar: nothing while its chunk loads. When the chunk cannot be fetched (the connection
 * dropped, a new deploy replaced the files) the rest of the screen stays and a notice offers a
 * reload: React.lazy keeps the failed import, and after a deploy the old file is gone, so only a
 * new page fetches it (docs/console.md "Loading"). Without a boundary here such a failure reached
 * the nearest error boundary, which for the toolbar and the drawer is none: the whole app went
 * blank because a menu could not load; and without the notice the click did nothing at all.
 * The reload is the agent's choice, not automatic: a reply being typed would be lost.
 */
export class LazyPart extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  private readonly id = Symbol('lazy part');

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('lazy part failed', error, info.componentStack);
    changeFailed(() => failed.push(this.id));
  }

  componentWillUnmount() {
    const i = failed.indexOf(this.id);
    if (i >= 0) changeFailed(() => failed.splice(i, 1));
  }

  render() {
    return this.state.failed ? <PartFailedNotice id={this.id} /> : <Suspense fallback={null}>{this.props.children}</Suspense>;
  }
}
