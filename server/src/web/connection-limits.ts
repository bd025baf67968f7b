import type http from 'node:http';
import type { Logger } from '../logger';

/**
 * Open connections per client address (21,000 connections from one address made
 * every other client fail). A connection over the cap is closed as it is accepted, before a
 * byte is read, so one address cannot use up the process's sockets and file descriptors.
 * `max` 0 turns the cap off (behind a reverse proxy, which then limits per client).
 */
export function limitConnectionsPerAddress(server: http.Server, max: number, logger: Logger): { open(address: string): number } {
  const open = new Map<string, number>();
  let refused = 0;
  if (max > 0) {
    server.on('connection', (socket) => {
      const address = socket.remoteAddress ?? 'unknown';
      const count = open.get(address) ?? 0;
      if (count >= max) {
        refused++;
        // One line per 1,000 refusals: a flood must not flood the log too.
        if (refused % 1_000 === 1) logger.warn({ address, max, refused }, 'http.connection_cap');
        socket.destroy();
        return;
      }
      open.set(address, count + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
    });
  }
  return { open: (address) => open.get(address) ?? 0 };
}
