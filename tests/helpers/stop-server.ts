import type { AppServer } from '@atendimento/server';

/**
 * Stops a server built by `createServer` at once, without `close()`'s drain (tests and benches
 * have no request worth waiting for): open sockets cut (they would keep `httpServer.close()`
 * waiting), then what still writes in the background (change feed, bus, the SQLite
 * checkpointer's worker), then its PostgreSQL `schema` if it has one of its own, and the pool.
 */
export async function stopServerNow(server: AppServer, options: { schema?: string | null } = {}): Promise<void> {
  await server.hub.close();
  server.httpServer.closeAllConnections?.();
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  server.services.changes.close();
  await server.services.bus.close();
  if (options.schema) await dropSchema(server, options.schema);
  await server.services.checkpointer.stop();
  await server.db.destroy();
}

/** `drop schema ... cascade` can lose a deadlock to a request still finishing; it is safe to retry. */
async function dropSchema(server: AppServer, schema: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await server.db.raw('drop schema if exists ?? cascade', [schema]);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}
