import type { AppRoute } from '@atendimento/schemas';
import { api } from '../api/api';

/** The fields of an integration definition the menu needs (seed 000 §3 "Integration definition"). */
export interface MenuIntegration {
  id: string;
  name: string;
  register: string;
  order?: number;
  active?: boolean;
  menu?: boolean;
  listTitle?: string;
  listIcon?: string;
  lifeControl?: { deletedAt: string | null };
}

const SAFE_SEGMENT = /^[A-Za-z][\w-]{0,63}$/;

/**
 * Loads the menu integrations (seed 000 §2 start-up step 4: active, not deleted, flagged for
 * the menu, ordered by order). Failures are logged only (seed 000 §8): the app still starts.
 */
export async function loadMenuIntegrations(): Promise<MenuIntegration[]> {
  const query = new URLSearchParams({
    filter: JSON.stringify({ active: true, menu: true }),
    sort: JSON.stringify(['order', 'ASC']),
    range: JSON.stringify([0, 99]),
  });
  try {
    const body = await api<unknown>(`/api/integrations?${query}`, { notify: false });
    const list = (Array.isArray(body) ? body : ((body as { data?: unknown })?.data ?? [])) as MenuIntegration[];
    return list
      .filter((item) => item && item.active !== false && item.menu === true && !item.lifeControl?.deletedAt && SAFE_SEGMENT.test(item.register ?? ''))
      .sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  } catch (error) {
    console.warn('menu integrations unavailable', error);
    return [];
  }
}

/** One admin-only route per menu integration ('/{register}', seed 000 §2), skipping names the table already uses. */
export function integrationRoutes(items: MenuIntegration[], taken: readonly AppRoute[]): AppRoute[] {
  const used = new Set(taken.map((route) => route.path));
  return items
    .filter((item) => !used.has(`/${item.register}`))
    .map((item) => ({
      path: `/${item.register}`,
      name: item.listTitle || item.name,
      icon: item.listIcon || 'ListAlt',
      access: 'admin' as const,
      kind: 'register' as const,
      inMenu: true,
    }));
}
