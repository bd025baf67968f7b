/**
 * Values of an inbound provider payload that a channel parser must not trust as given: a bad one
 * in one message must neither throw (a 4xx would lose the delivery's other messages, which the
 * provider never resends) nor be stored as if it were real.
 */

/** The instant of `ms` since the epoch; now when it is not a real instant (absent, text, 1e20). */
export function isoFromMillis(ms: unknown): string {
  const n = Number(ms);
  const date = Number.isFinite(n) && n > 0 ? new Date(n) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : new Date().toISOString();
}

const coordinate = (value: unknown, limit: number): number | null => {
  if (typeof value !== 'number' && (typeof value !== 'string' || value.trim() === '')) return null;
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : null;
};

/** A point on the map, or null when either coordinate is missing or out of range ('abc', null, 200). */
export function coordinates(latitude: unknown, longitude: unknown): { latitude: number; longitude: number } | null {
  const lat = coordinate(latitude, 90);
  const lng = coordinate(longitude, 180);
  return lat === null || lng === null ? null : { latitude: lat, longitude: lng };
}
