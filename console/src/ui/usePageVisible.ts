import { useEffect, useState } from 'react';

/**
 * True while the page is visible (`document.visibilityState`). Reading rules use it: a chat in
 * a background tab is not "read" until the tab shows it (docs/whatsapp.md "Read receipts").
 */
export function usePageVisible(): boolean {
  const read = () => typeof document === 'undefined' || document.visibilityState !== 'hidden';
  const [visible, setVisible] = useState(read);
  useEffect(() => {
    const update = () => setVisible(read());
    document.addEventListener('visibilitychange', update);
    update();
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}
