import { runRoutingRace, type RaceResult } from '../reliability/routing-race';
import type { BenchLine } from './report';

/**
 * B14, routing (docs/routing.md, docs/bench.md): the routing race of
 * tests/reliability/routing-race.ts on PostgreSQL with 2 server processes, 200 agents of 10
 * departments and B14_CHATS (5,000) customers. Two runs:
 * - drain: the chats are all queued first, then the agents come online; chats routed per
 *   second from the first assignment to the last (the router alone, ingest out of the way);
 * - arrival: agents online while the chats arrive at once; p99 from the ingest's
 *   acknowledgement (webhook 200) to the assignment, and from the room's creation.
 * Both check the race's guarantees (at most once, caps, rule order); a broken one is printed.
 */
export async function routingBench(databaseUrl: string): Promise<BenchLine[]> {
  const chats = Number(process.env.B14_CHATS ?? 5_000);
  const options = { databaseUrl, bus: 'pg' as const, processes: 2, agents: 200, departments: 10, cap: 25, concurrency: 24, perWebhook: 5, chats, log: (l: string) => console.log(`  ${l}`) };
  const drain = await runRoutingRace({ ...options, mode: 'drain' });
  const arrival = await runRoutingRace({ ...options, mode: 'arrival' });
  const broken = (r: RaceResult) =>
    [r.doubleAssigned.length && `${r.doubleAssigned.length} assigned twice`, r.overCap.length && `${r.overCap.length} agents above the cap`, r.ruleViolations.length && `${r.ruleViolations.length} rule-order breaks`]
      .filter(Boolean).join(', ') || 'guarantees held';
  return [
    {
      id: 'B14a', name: `routing drain, 2 PG processes, ${chats} chats / 200 agents`, value: drain.drainPerSecond, unit: 'chats/s', target: '≥ 500', met: drain.drainPerSecond >= 500,
      note: `${drain.assigned}/${drain.expectedAssigned} assigned; ${broken(drain)}`,
    },
    {
      id: 'B14b', name: 'routing on arrival: p99 ingest ack → assignment', value: arrival.p99FromAckMs, unit: 'ms', target: '≤ 50', met: arrival.p99FromAckMs <= 50,
      note: `p50 ${arrival.p50FromAckMs} ms; from the room's creation p50 ${arrival.p50Ms} / p99 ${arrival.p99Ms} ms; ${chats} chats ingested in ${arrival.ingestSeconds.toFixed(1)} s (${(chats / arrival.ingestSeconds).toFixed(0)}/s, the ingest's own ceiling); routed ${arrival.routedPerSecond.toFixed(0)}/s; most overtaken ${arrival.maxOvertaken}; ${broken(arrival)}`,
    },
  ];
}
