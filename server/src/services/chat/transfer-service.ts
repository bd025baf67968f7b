import {
  agentSelectable, defaultRemainInChat, queueSelectable, transferNote, validateTransfer, messages as texts,
  type AppConfig, type MoveQueuesInput, type Room, type RoomAgent, type RoomQueue, type TransferRecord, type TransferRoomInput, type TransferTargets,
} from '@atendimento/schemas';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { Transaction } from '../../db/knex';
import type { StatusRecord, createStatusRepository } from '../../db/repositories/status-repository';
import type { TransferAgentRow, TransferQueueRow, TransferRepository } from '../../db/repositories/transfer-repository';
import type { RecordChange } from '../changes/change-feed';
import type { ChatDeps } from './chat-deps';
import { newId } from './ids';
import { newMessage } from './room-factory';
import { canAttend, canSee, userOnly, type ChatScope, type UserViewer } from './room-scope';

/** Presence window of the status bar's heartbeat (docs/routing.md "Available"). */
const ONLINE_WINDOW_MS = 90_000;

type StatusRepository = ReturnType<typeof createStatusRepository>;

function isOnline(latest: StatusRecord | undefined): boolean {
  return Boolean(latest && !['offline', 'logoff'].includes(latest.status.toLowerCase()));
}

const format = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

/**
 * Transfers (seed 001 §4 "Transfer", §5, §6; docs/transfers.md): to agents and to queues, with
 * the dialog's rules (schemas/src/chat/transfer.ts) enforced here. Each transfer, in one
 * transaction that locks the room: the system note, the room's new agents/queues, the
 * transferAgent/transferQueue record on the room and one `room_transfers` row per target.
 * A transfer and a close of the same chat serialise on the room's lock: the second finds the
 * first's result (closed → 409, transferred → the new state).
 */
export function createTransferService(deps: ChatDeps & { transfers: TransferRepository; statuses: StatusRepository }) {
  const { feed, clock, rooms, messages, transfers, statuses } = deps;

  async function onlineSet(q: ChatDeps['db'] | Transaction, tenantId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const since = new Date(clock.now().getTime() - ONLINE_WINDOW_MS).toISOString();
    const latest = await statuses.latestSince(q, tenantId, since, [...new Set(ids)]);
    return new Set([...latest].filter(([, record]) => isOnline(record)).map(([id]) => id));
  }

  async function lockVisible(trx: Transaction, scope: ChatScope, viewer: UserViewer, roomId: string): Promise<Room> {
    const room = await rooms.findById(scope.tenantId, roomId, trx, true);
    if (!room || !canSee(viewer, scope.config, room)) throw notFound();
    if (!room.active) throw conflict('room_closed', texts.chatServer.alreadyClosed);
    if (room.internal) throw badRequest('internal_room', texts.chatServer.internalRoom);
    if (!canAttend(viewer, room)) throw forbidden('enter_first', texts.chatServer.enterFirst);
    return room;
  }

  function justifyOf(config: AppConfig, kind: 'agents' | 'queues', ids: string[], input: { justify?: string | null; obs?: string | null } | undefined) {
    const justify = input?.justify?.trim() || null;
    const obs = input?.obs?.trim() || null;
    const problem = validateTransfer(config, { kind, ids, justify });
    // The seed's own text as errorMessage: the dialog toasts it as is.
    if (problem) throw badRequest(problem.field === 'transferJustify.justify' ? 'transfer_justify_required' : `transfer_${kind}_required`, problem.message, [problem]);
    return { justify, obs };
  }

  async function note(trx: Transaction, record: RecordChange, tenantId: string, room: Room, text: string): Promise<void> {
    const now = clock.now().toISOString();
    const message = newMessage({ id: newId(), room, author: { id: 'system', displayName: texts.routing.systemAuthor, type: 'system' }, type: 'text', text, now, fromContact: false, annotation: true });
    await messages.insert(trx, tenantId, { ...message, status: { sent: true, sentAt: now } });
    record({ collection: 'messages', id: message.id, op: 'upsert' });
  }

  async function save(trx: Transaction, record: RecordChange, tenantId: string, next: Room, previous: Room): Promise<Room> {
    const stamped = { ...next, lifeControl: { ...next.lifeControl, updatedAt: clock.now().toISOString() } };
    await rooms.save(trx, tenantId, stamped, previous);
    record({ collection: 'rooms', id: next.id, op: 'upsert' });
    return stamped;
  }

  const queueOfRow = (q: TransferQueueRow): RoomQueue => ({ id: q.id, name: q.name, displayName: q.name, parent: null });
  const addOnce = <T extends { id: string }>(list: T[], more: T[]) => [...list, ...more.filter((m) => !list.some((l) => l.id === m.id))];

  function canChoose(viewer: UserViewer, config: AppConfig, kind: 'agents' | 'queues'): boolean {
    if (viewer.admin) return true;
    return !(kind === 'agents' ? config.claims?.disableChooseTransfer : config.claims?.disableChooseQueue);
  }

  return {
    /** What the transfer and queue dialogs list for this room and caller (seed 001 §6 "Transfer targets"). */
    async targets(scope: ChatScope, roomId: string): Promise<TransferTargets> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const room = await rooms.findById(tenantId, roomId);
      if (!room || !canSee(viewer, config, room)) throw notFound();
      const [agents, queues] = await Promise.all([transfers.agents(deps.db, tenantId), transfers.queues(deps.db, tenantId)]);
      const online = await onlineSet(deps.db, tenantId, agents.map((a) => a.id));
      const names = new Map(queues.filter((q) => q.departmentId && q.id === `depto${q.departmentId}`).map((q) => [q.departmentId!, q.name]));
      return {
        agents: agents
          .filter((a) => a.active && a.id !== viewer.id)
          .map((a) => ({
            id: a.id, displayName: a.displayName, email: a.email, photoUrl: a.photoUrl, online: online.has(a.id),
            depts: a.departments.map((id) => ({ id, displayName: names.get(id) ?? id })),
            selectable: agentSelectable(config, { online: online.has(a.id) }),
          })),
        queues: queues
          .filter((q) => q.active)
          .map((q) => {
            const onlineAgents = q.agents.filter((id) => online.has(id)).length;
            const current = room.queues.length === 1 && room.queues[0]!.id === q.id && !room.inAttend;
            return { id: q.id, name: q.name, departmentId: q.departmentId, onlineAgents, selectable: !current && queueSelectable(config, { onlineAgents }) };
          }),
        justifies: config.transferJustify ?? [],
        remainInChat: defaultRemainInChat(config),
        canTransfer: canChoose(viewer, config, 'agents'),
        canMoveQueues: canChoose(viewer, config, 'queues'),
      };
    },

    /**
     * Transfer to agents: the note, the caller leaves unless they stay (remainInChat), the
     * targets join; with tenant claim transferWithQueue the chat also moves to the first
     * target's department queue.
     */
    async toAgents(scope: ChatScope, roomId: string, input: TransferRoomInput): Promise<Room> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      if (!canChoose(viewer, config, 'agents')) throw forbidden('transfer_disabled', texts.transfer.transferDisabled);
      const ids = [...new Set(input.agents)];
      const { justify, obs } = justifyOf(config, 'agents', ids, input.transferJustify);
      const result = await feed.transaction(tenantId, async (trx, record) => {
        const room = await lockVisible(trx, scope, viewer, roomId);
        // After the room is found: a chat the caller cannot see is 404 whatever the body says.
        if (ids.includes(viewer.id)) throw badRequest('transfer_self', texts.transfer.notSelf, [{ field: 'agents', message: texts.transfer.notSelf }]);
        const found = await transfers.agents(trx, tenantId, ids);
        const targets: TransferAgentRow[] = ids.map((id) => found.find((a) => a.id === id && a.active)).filter((a): a is TransferAgentRow => Boolean(a));
        if (targets.length !== ids.length) throw badRequest('agent_not_found', texts.chatServer.agentNotFound, [{ field: 'agents', message: texts.chatServer.agentNotFound }]);
        const online = await onlineSet(trx, tenantId, ids);
        const offline = targets.find((a) => !agentSelectable(config, { online: online.has(a.id) }));
        if (offline) throw badRequest('agent_offline', format(texts.transfer.agentOffline, { agent: offline.displayName }));
        const now = clock.now().toISOString();
        const remain = input.remainInChat ?? defaultRemainInChat(config);
        const joining: RoomAgent[] = targets.map((a) => ({ id: a.id, displayName: a.displayName }));
        const staying = room.agents.filter((a) => remain || a.id !== viewer.id);
        let next: Room = {
          ...room,
          agents: addOnce(staying, joining),
          agentsHistory: addOnce(room.agentsHistory, joining),
          inAttend: true,
          destination: 'vueJs',
        };
        const first = targets[0]!;
        if (config.claims?.transferWithQueue && first.departments.length && !first.departments.includes(room.departmentId ?? '')) {
          const queue = (await transfers.queues(trx, tenantId)).find((q) => q.id === `depto${first.departments[0]}`);
          if (queue) next = { ...next, departmentId: queue.departmentId, queues: [queueOfRow(queue)], queuesHistory: addOnce(room.queuesHistory, [...room.queues, queueOfRow(queue)]) };
        }
        const transferAgent: TransferRecord = { transferTo: ids, transferFrom: viewer.id, transferBy: viewer.displayName, transferObs: obs, transferJustify: justify };
        next = { ...next, transferAgent, transferTime: now };
        await note(trx, record, tenantId, room, transferNote({ by: viewer.displayName, to: targets.map((a) => a.displayName), queue: false, justify, obs }));
        const saved = await save(trx, record, tenantId, next, room);
        await transfers.insert(trx, tenantId, targets.map((a) => ({
          id: newId(), roomId: room.id, fromUserId: viewer.id, toUserId: a.id, fromDepartmentId: room.departmentId, toDepartmentId: saved.departmentId,
          justification: justify, observation: obs, createdBy: viewer.id, createdAt: now,
        })));
        return { saved, previousDepartment: room.departmentId };
      });
      if (!result.saved.agents.some((a) => a.id === viewer.id)) deps.hooks.afterRelease(tenantId, [result.previousDepartment]);
      return result.saved;
    },

    /**
     * Move to queues: the note, every agent leaves (seed: "Queue transfer removes all agents"),
     * the chat waits in the new queue(s) and the routing of the first queue's department picks
     * the agent (docs/routing.md), after the commit.
     */
    async toQueues(scope: ChatScope, roomId: string, input: MoveQueuesInput): Promise<Room> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      if (!canChoose(viewer, config, 'queues')) throw forbidden('queues_disabled', texts.transfer.queuesDisabled);
      const ids = [...new Set(input.queues)];
      const { justify, obs } = justifyOf(config, 'queues', ids, input.transferJustify);
      const result = await feed.transaction(tenantId, async (trx, record) => {
        const room = await lockVisible(trx, scope, viewer, roomId);
        const all = await transfers.queues(trx, tenantId);
        const targets = ids.map((id) => all.find((q) => q.id === id && q.active)).filter((q): q is TransferQueueRow => Boolean(q));
        if (targets.length !== ids.length) throw badRequest('queue_not_found', texts.transfer.queueNotFound, [{ field: 'queues', message: texts.transfer.queueNotFound }]);
        if (!room.inAttend && room.queues.length === targets.length && targets.every((t) => room.queues.some((q) => q.id === t.id))) {
          throw badRequest('same_queue', texts.transfer.sameQueue);
        }
        const online = await onlineSet(trx, tenantId, targets.flatMap((q) => q.agents));
        const empty = targets.find((q) => !queueSelectable(config, { onlineAgents: q.agents.filter((id) => online.has(id)).length }));
        if (empty) throw badRequest('queue_offline', format(texts.transfer.queueOffline, { queue: empty.name }));
        const now = clock.now().toISOString();
        const queues = targets.map(queueOfRow);
        const departmentId = targets.find((q) => q.departmentId)?.departmentId ?? room.departmentId;
        const transferQueue: TransferRecord = { transferTo: ids, transferFrom: room.queues[0]?.id ?? null, transferBy: viewer.displayName, transferObs: obs, transferJustify: justify, trasferQueues: ids };
        const next: Room = {
          ...room,
          agents: [],
          inAttend: false,
          destination: 'vueJs',
          departmentId,
          queues,
          queuesHistory: addOnce(room.queuesHistory, [...room.queues, ...queues]),
          onHold: { active: false, message: null },
          transferQueue,
          transferTime: now,
        };
        await note(trx, record, tenantId, room, transferNote({ by: viewer.displayName, to: targets.map((q) => q.name), queue: true, justify, obs }));
        const saved = await save(trx, record, tenantId, next, room);
        await transfers.insert(trx, tenantId, [{
          id: newId(), roomId: room.id, fromUserId: room.agents.find((a) => a.id === viewer.id)?.id ?? room.agents[0]?.id ?? null, toUserId: null,
          fromDepartmentId: room.departmentId, toDepartmentId: departmentId, justification: justify, observation: obs, createdBy: viewer.id, createdAt: now,
        }]);
        return { saved, previousDepartment: room.departmentId };
      });
      // Routing decides who gets it (and the old department may now have room for its queue).
      deps.hooks.afterRelease(tenantId, [result.saved.departmentId, result.previousDepartment]);
      return result.saved;
    },
  };
}

export type TransferService = ReturnType<typeof createTransferService>;
