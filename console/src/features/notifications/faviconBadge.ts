/**
 * The favicon with the count of the agent's chats (seed 001 §4): an SVG data URL, so no canvas
 * is needed and the number stays sharp at any size. 0 restores the page's own icon.
 */
export function badgeIcon(count: number): string {
  const label = count > 99 ? '99+' : String(count);
  const size = label.length > 2 ? 26 : 30;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` +
    `<path d="M8 8h40a8 8 0 0 1 8 8v22a8 8 0 0 1-8 8H22l-12 10v-10H8a8 8 0 0 1-8-8V16a8 8 0 0 1 8-8z" fill="#1976d2"/>` +
    `<circle cx="44" cy="44" r="20" fill="#d32f2f"/>` +
    `<text x="44" y="54" font-family="Arial,sans-serif" font-size="${size}" font-weight="bold" text-anchor="middle" fill="#fff">${label}</text>` +
    `</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
