import { useEffect } from 'react';
import { useNotificationContext, useTakeUndoableMutation, useTranslate, type NotificationPayload } from 'react-admin';
import { showToast, type ToastSeverity } from '../ui/toast';

/**
 * react-admin's notifications (useNotify: 'Registro Salvo!', save errors...) go through the
 * app's one toaster, so every toast has the tenant's position, 5000 ms, a close button and
 * pause on hover. Undoable edits get 'Desfazer'; the edit is committed when the toast closes.
 */
export function NotificationBridge() {
  const { notifications, takeNotification } = useNotificationContext();
  const takeMutation = useTakeUndoableMutation();
  const translate = useTranslate();

  useEffect(() => {
    if (notifications.length === 0) return;
    const taken: NotificationPayload[] = [];
    for (let next = takeNotification(); next; next = takeNotification()) taken.push(next);
    for (const notification of taken) {
      const { message, type, notificationOptions = {} } = notification;
      const { messageArgs, undoable, autoHideDuration } = notificationOptions;
      const text = typeof message === 'string' ? translate(message, { _: message, ...messageArgs }) : String(message ?? '');
      const severity: ToastSeverity = type === 'success' || type === 'error' || type === 'warning' ? type : 'info';
      if (!undoable) {
        showToast(text, severity, autoHideDuration === undefined ? {} : { duration: autoHideDuration });
        continue;
      }
      let settled = false;
      const settle = (isUndo: boolean) => {
        if (settled) return;
        settled = true;
        takeMutation()?.({ isUndo });
      };
      showToast(text, severity, { action: { label: translate('ra.action.undo'), onClick: () => settle(true) }, onClose: () => settle(false) });
    }
  }, [notifications, takeNotification, takeMutation, translate]);

  return null;
}
