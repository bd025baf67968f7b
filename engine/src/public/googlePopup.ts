import { publicMessages as messages } from '@atendimento/schemas';

export type GooglePopupResult = { ok: true } | { ok: false; message: string };

/** How long a closed popup may still deliver its message (it posts, then closes itself). */
const CLOSE_GRACE_MS = 600;

/**
 * 'Entrar com Google' (docs/auth.md "Google"): opens the server's authorization-code flow in a
 * popup and waits for the page it ends on to post the outcome (same origin only). On success
 * the refresh cookie is already set, so the caller restores the session. A popup closed
 * before the end answers the seed's 'O popup foi fechado pelo usuário antes de finalizar o login.'.
 */
export function googlePopupSignIn(win: Window = window): Promise<GooglePopupResult> {
  const popup = win.open('/api/auth/google/start', 'google-signin', 'popup,width=520,height=680');
  if (!popup) return Promise.resolve({ ok: false, message: messages.auth.popupClosed });
  return new Promise((resolve) => {
    let settled = false;
    let closedAt = 0;
    const finish = (result: GooglePopupResult) => {
      if (settled) return;
      settled = true;
      win.removeEventListener('message', onMessage);
      clearInterval(timer);
      resolve(result);
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string; ok?: boolean; message?: string } | null;
      if (event.origin !== win.location.origin || data?.type !== 'google-signin') return;
      finish(data.ok ? { ok: true } : { ok: false, message: data.message ?? messages.auth.googleFlowInvalid });
    };
    win.addEventListener('message', onMessage);
    const timer = setInterval(() => {
      if (!popup.closed) return;
      closedAt ||= Date.now();
      if (Date.now() - closedAt >= CLOSE_GRACE_MS) finish({ ok: false, message: messages.auth.popupClosed });
    }, 200);
  });
}
