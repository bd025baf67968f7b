import { Component, type ErrorInfo, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { publicMessages as messages } from '@atendimento/schemas';

/** Keeps the chrome alive when one screen throws: logs once, shows the seed's internal-error text. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { failed: boolean; resetKey?: string }> {
  state = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: { resetKey?: string }, state: { failed: boolean; resetKey?: string }) {
    // Navigating elsewhere gives the next screen a fresh start.
    return props.resetKey !== state.resetKey ? { failed: false, resetKey: props.resetKey } : null;
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('screen failed', error, info.componentStack);
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Alert severity="error" action={<Button color="inherit" onClick={() => window.location.reload()}>{messages.shell.reload}</Button>}>
        {messages.errors.internal}
      </Alert>
    );
  }
}
