import { describe, expect, it } from 'vitest';
import { runRoutingRace, type RaceOptions } from './routing-race';

/**
 * The routing race (docs/routing.md): 200 agents
 * of 10 departments (half 'Menor carga', half 'Ordem predefinida', 20 chats per agent at most)
 * and 5,000 customers writing at once over 2 server processes on one PostgreSQL schema. Every
 * chat is assigned at most once, no agent goes above roomsPerAgent, each assignment is the one
 * the rule picks at its turn, and the chats left waiting are the last to arrive (up to the
 * webhooks in flight: order is the order in which chats were committed). Then the same with
 * BUS=redis on fewer chats. ROUTING_RACE_CHATS shortens it. Runs in `npm run test:pg`.
 */
const CHATS = Number(process.env.ROUTING_RACE_CHATS ?? 5_000);
const base: Omit<RaceOptions, 'bus' | 'chats'> = {
  databaseUrl: process.env.DATABASE_URL!, processes: 2, agents: 200, departments: 10, cap: 20, concurrency: 24, perWebhook: 5, mode: 'arrival',
};

function check(result: Awaited<ReturnType<typeof runRoutingRace>>, options: { chats: number; concurrency: number; perWebhook: number }) {
  expect(result.webhookErrors).toBe(0);
  expect(result.chats).toBe(options.chats);
  expect(result.assigned).toBe(result.expectedAssigned);
  expect(result.doubleAssigned).toEqual([]);
  expect(result.overCap).toEqual([]);
  expect(result.ruleViolations).toEqual([]);
  expect(result.maxOvertaken).toBeLessThanOrEqual(options.concurrency * options.perWebhook);
}

describe('routing race over two server processes on PostgreSQL', () => {
  it(`${CHATS} chats, 200 agents, 10 departments, BUS=pg: at most once, never above the cap, in rule order`, async () => {
    const result = await runRoutingRace({ ...base, bus: 'pg', chats: CHATS });
    // 10 departments × 20 agents × 20 = 4,000 seats for 5,000 chats: 1,000 wait.
    expect(result.expectedAssigned).toBe(Math.min(CHATS, 4_000));
    check(result, { chats: CHATS, ...base });
  }, 900_000);

  it('BUS=redis: the same guarantees', async () => {
    const chats = Math.min(CHATS, 1_000);
    const result = await runRoutingRace({ ...base, bus: 'redis', agents: 40, departments: 4, cap: 5, chats });
    expect(result.expectedAssigned).toBe(Math.min(chats, 200));
    check(result, { chats, ...base });
  }, 600_000);
});
