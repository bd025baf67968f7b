import { useEffect } from 'react';
import { badgeIcon } from './faviconBadge';

/** Puts the count of the agent's chats on the favicon; restores the page's icon at 0 or unmount. */
export function useFaviconBadge(count: number): void {
  useEffect(() => {
    if (typeof document === 'undefined' || count <= 0) return;
    let link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
    const created = !link;
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    const previous = link.getAttribute('href');
    link.setAttribute('href', badgeIcon(count));
    link.setAttribute('data-badge', String(count));
    const current = link;
    return () => {
      current.removeAttribute('data-badge');
      if (created) current.remove();
      else if (previous !== null) current.setAttribute('href', previous);
    };
  }, [count]);
}
