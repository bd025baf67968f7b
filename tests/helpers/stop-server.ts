import type { AppServer } from '@atendimento/server';

/**
 * Stops a server built by `createServer` at once, without `close()`'s drain (tests and benches
 * have no request worth waiting for): open sockets cut (they would keep `httpServer.close()`
 * waiting), then what still writes in the background (change feed, bus, the SQLite
 * checkpointer's worker) before the database closes. `beforeDb` runs last with the pool open
 * (a PostgreSQL schema to drop).
 */
export async function stopServerNow(server: AppServer, options: { beforeDb?: () => Promise<unknown> } = {}): Promise<void> {
  await server.hub.close();
  server.httpServer.closeAllConnections?.();
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  server.services.changes.close();
  await server.services.bus.close();
  await options.beforeDb?.();
  await server.services.checkpointer.stop();
  await server.db.destroy();
}
