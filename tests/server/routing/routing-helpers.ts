import { expect } from 'vitest';
import type { Message, Room, WebchatSessionAnswer } from '@atendimento/schemas';
import { ManualClock } from '@atendimento/server';
import { createStatusRepository } from '@atendimento/server/db/repositories/status-repository';
import { TEST_PASSWORD } from '../../helpers/test-server';
import { hashPassword } from '@atendimento/server/services/auth/password';
import { startChatServer, stopChatServer, visitorStarts, type ChatTest } from '../chat/chat-helpers';

/**
 * Routing tests on the chat fixture (acme: departments vendas and suporte, web-chat channels
 * site-vendas and site-suporte) with a manual clock: the presence sweeper is stopped, agents
 * are kept online by heartbeats the helper writes as the clock moves, and every step waits
 * for the scheduler and the router to finish, so a test reads a settled state.
 */
export interface RoutingTest extends ChatTest {
  clock: ManualClock;
  /** Agents kept online while the clock moves. */
  online: Set<string>;
  agentTokens: Map<string, string>;
}

export const MINUTE = 60_000;

/** Monday 2026-01-05 09:00 in São Paulo (12:00 UTC). */
export const MONDAY_9H = new Date('2026-01-05T12:00:00.000Z');

export async function startRoutingServer(start: Date = MONDAY_9H): Promise<RoutingTest> {
  const clock = new ManualClock(start);
  // Access tokens signed at the manual clock's time must outlive the hours these tests move it.
  const t = await startChatServer({ clock, env: { ACCESS_TOKEN_TTL: String(7 * 24 * 3600) } });
  t.server.services.presence.stop();
  return Object.assign(t, { clock, online: new Set<string>(), agentTokens: new Map<string, string>() });
}

export const stopRoutingServer = (t: RoutingTest | undefined) => stopChatServer(t);

/** Creates agents of acme (ids as given) and answers their tokens. */
export async function addAgents(t: RoutingTest, agents: { id: string; displayName: string; extra?: Record<string, unknown> }[]): Promise<void> {
  const hash = await hashPassword(TEST_PASSWORD);
  for (const a of agents) {
    await t.server.repos.users.create('acme', { id: a.id, email: `${a.id}@acme.test`, displayName: a.displayName, passwordHash: hash, emailVerified: true, extra: a.extra }, t.clock.now());
    t.agentTokens.set(a.id, await t.tokenFor('acme', a.id));
  }
}

export function tokenOf(t: RoutingTest, userId: string): string {
  const known: Record<string, string> = { 'acme-admin': t.tokens.admin, 'acme-agente': t.tokens.agente, 'acme-supervisor': t.tokens.supervisor, 'acme-suporte': t.tokens.suporte };
  const token = t.agentTokens.get(userId) ?? known[userId];
  if (!token) throw new Error(`tokenOf: no token for ${userId}`);
  return token;
}

/** PATCH a department through the register API (as the department screen and the rules dialog do). */
export async function patchDepartment(t: RoutingTest, id: string, patch: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await t.api(`/api/departaments/${id}`, { method: 'PATCH', body: patch, token: t.tokens.admin });
  expect(res.status, res.text).toBe(200);
  await settleRouting(t);
  return res.body;
}

export async function patchAgent(t: RoutingTest, id: string, patch: Record<string, unknown>): Promise<void> {
  const res = await t.api(`/api/agents/${id}`, { method: 'PATCH', body: patch, token: t.tokens.admin });
  expect(res.status, res.text).toBe(200);
}

/** The status bar's call: the agent chooses a status ('online', 'ausente', 'offline'). */
export async function setStatus(t: RoutingTest, userId: string, status: string): Promise<void> {
  const res = await t.api(`/api/users/${userId}/status`, { method: 'POST', body: { status }, token: tokenOf(t, userId) });
  expect(res.status, res.text).toBe(200);
  if (status === 'online') t.online.add(userId);
  else t.online.delete(userId);
  await settleRouting(t);
}

/** Waits for change events, presence reactions and routing passes already started. */
export async function settleRouting(t: RoutingTest): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await t.server.services.changes.idle();
    await t.server.services.routing.idle();
  }
}

/**
 * Moves the clock minute by minute (agents in `online` send their heartbeat each minute, as
 * the status bar does), firing what falls due on the way.
 */
export async function advance(t: RoutingTest, ms: number): Promise<void> {
  const statuses = createStatusRepository(t.server.db);
  let left = ms;
  while (left > 0) {
    const step = Math.min(left, MINUTE);
    t.clock.advance(step);
    left -= step;
    for (const id of t.online) await statuses.insert(t.server.db, 'acme', id, 'online', t.clock.now());
    await t.server.services.scheduler.tick();
    await settleRouting(t);
  }
}

/** A visitor writes on the channel's widget; answers the session and the room as it settled. */
export async function customerWrites(t: RoutingTest, channelId: string, text: string, name = 'Cliente'): Promise<{ session: WebchatSessionAnswer['data']; room: Room }> {
  const session = await visitorStarts(t, channelId, text, name);
  await settleRouting(t);
  return { session, room: await roomOf(t, session.roomId!) };
}

export async function roomOf(t: RoutingTest, roomId: string): Promise<Room> {
  const res = await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin });
  expect(res.status, res.text).toBe(200);
  return res.body.data as Room;
}

/** Every message of the room as an admin reads it (system notes included), oldest first. */
export async function messagesOf(t: RoutingTest, roomId: string): Promise<Message[]> {
  const res = await t.api(`/api/rooms/${roomId}/messages?limit=200`, { token: t.tokens.admin });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Message[]).slice().sort((a, b) => a.lifeControl.createdAt.localeCompare(b.lifeControl.createdAt) || a.id.localeCompare(b.id));
}

export const notesOf = async (t: RoutingTest, roomId: string) => (await messagesOf(t, roomId)).filter((m) => m.annotation && m.author.type === 'system').map((m) => m.text);
export const customerSees = async (t: RoutingTest, session: WebchatSessionAnswer['data']) => {
  const res = await t.api(`/api/rooms/${session.roomId}/messages?limit=200`, { token: session.accessToken });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Message[]).slice().sort((a, b) => a.lifeControl.createdAt.localeCompare(b.lifeControl.createdAt) || a.id.localeCompare(b.id)).map((m) => m.text);
};

/** Room ids in a user's tab (HTTP, as the console's first page). */
export async function tabOf(t: RoutingTest, userId: string, tab: 'userChats' | 'queuesChats'): Promise<string[]> {
  const res = await t.api(`/api/rooms?tab=${tab}&limit=100`, { token: tokenOf(t, userId) });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Room[]).map((r) => r.id);
}

export { stopChatServer };
