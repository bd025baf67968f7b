import { randomUUID } from 'node:crypto';
import type { User, UserClaims, UserType } from '@atendimento/schemas';
import type { Db } from '../knex';
import { parseJson, toJson } from '../knex';

/** What is kept in users.data beside the indexed columns. */
interface UserData {
  photoUrl: string | null;
  claims: UserClaims;
  team: string[];
  status: string | null;
  erpUserId: string | null;
  updatePass: boolean;
  whatsapp: string | null;
  showChatsWithTags: string[];
  [key: string]: unknown;
}

export interface UserRecord extends User {
  tenantId: string;
  passwordHash: string | null;
  emailVerified: boolean;
}

interface NewUser {
  id?: string;
  email: string;
  displayName: string;
  type?: UserType;
  passwordHash: string | null;
  active?: boolean;
  emailVerified?: boolean;
  claims?: UserClaims;
  team?: string[];
  erpUserId?: string | null;
  updatePass?: boolean;
  photoUrl?: string | null;
  extra?: Record<string, unknown>;
}

type UserPatch = Partial<Pick<UserRecord, 'displayName' | 'passwordHash' | 'active' | 'emailVerified' | 'photoUrl' | 'claims' | 'team' | 'status' | 'erpUserId' | 'updatePass' | 'updatePassReason' | 'whatsapp'>>;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function fromRow(row: Record<string, unknown>): UserRecord {
  const data = parseJson<UserData>(row.data, {} as UserData);
  return {
    ...data,
    id: String(row.id),
    tenantId: String(row.tenant_id),
    type: row.type as UserType,
    displayName: String(row.display_name),
    email: String(row.email),
    photoUrl: data.photoUrl ?? null,
    claims: data.claims ?? {},
    team: data.team ?? [],
    status: data.status ?? null,
    erpUserId: data.erpUserId ?? null,
    updatePass: Boolean(data.updatePass),
    whatsapp: data.whatsapp ?? null,
    showChatsWithTags: data.showChatsWithTags ?? [],
    active: Boolean(row.active),
    passwordHash: (row.password_hash as string | null) ?? null,
    emailVerified: Boolean(row.email_verified),
    lifeControl: {
      createdAt: String(row.created_at),
      updatedAt: String(row.updated_at),
      deletedAt: (row.deleted_at as string | null) ?? null,
    },
  };
}

/** Users of one tenant; every call takes tenantId first. */
export function createUserRepository(db: Db) {
  const scoped = (tenantId: string) => db('users').where('users.tenant_id', tenantId).whereNull('users.deleted_at');

  return {
    async findById(tenantId: string, id: string): Promise<UserRecord | null> {
      const row = await scoped(tenantId).andWhere('users.id', id).first();
      return row ? fromRow(row) : null;
    },
    async findByEmail(tenantId: string, email: string): Promise<UserRecord | null> {
      const row = await scoped(tenantId).andWhere('users.email', normaliseEmail(email)).first();
      return row ? fromRow(row) : null;
    },
    async list(tenantId: string): Promise<UserRecord[]> {
      const rows = await scoped(tenantId).orderBy('display_name');
      return rows.map(fromRow);
    },
    async create(tenantId: string, user: NewUser, now: Date, trx: Db = db): Promise<UserRecord> {
      const iso = now.toISOString();
      const id = user.id ?? randomUUID();
      const data: UserData = {
        ...(user.extra ?? {}),
        photoUrl: user.photoUrl ?? null,
        claims: user.claims ?? {},
        team: user.team ?? [],
        status: null,
        erpUserId: user.erpUserId ?? null,
        updatePass: user.updatePass ?? false,
        whatsapp: null,
        showChatsWithTags: [],
      };
      await trx('users').insert({
        id,
        tenant_id: tenantId,
        email: normaliseEmail(user.email),
        display_name: user.displayName,
        type: user.type ?? 'agent',
        password_hash: user.passwordHash,
        active: user.active ?? true,
        email_verified: user.emailVerified ?? false,
        data: toJson(data),
        created_at: iso,
        updated_at: iso,
        deleted_at: null,
      });
      const created = await trx('users').where({ tenant_id: tenantId, id }).first();
      return fromRow(created);
    },
    async update(tenantId: string, id: string, patch: UserPatch, now: Date): Promise<UserRecord | null> {
      return db.transaction(async (trx) => {
        const row = await trx('users').where({ tenant_id: tenantId, id }).whereNull('deleted_at').first();
        if (!row) return null;
        const current = fromRow(row);
        const columns: Record<string, unknown> = { updated_at: now.toISOString() };
        if (patch.displayName !== undefined) columns.display_name = patch.displayName;
        if (patch.passwordHash !== undefined) columns.password_hash = patch.passwordHash;
        if (patch.active !== undefined) columns.active = patch.active;
        if (patch.emailVerified !== undefined) columns.email_verified = patch.emailVerified;
        const data: UserData = {
          ...parseJson<UserData>(row.data, {} as UserData),
          ...(patch.photoUrl !== undefined && { photoUrl: patch.photoUrl }),
          ...(patch.claims !== undefined && { claims: patch.claims }),
          ...(patch.team !== undefined && { team: patch.team }),
          ...(patch.status !== undefined && { status: patch.status }),
          ...(patch.erpUserId !== undefined && { erpUserId: patch.erpUserId }),
          ...(patch.updatePass !== undefined && { updatePass: patch.updatePass }),
          ...(patch.updatePassReason !== undefined && { updatePassReason: patch.updatePassReason }),
          ...(patch.whatsapp !== undefined && { whatsapp: patch.whatsapp }),
        };
        columns.data = toJson(data);
        await trx('users').where({ tenant_id: tenantId, id: current.id }).update(columns);
        return fromRow(await trx('users').where({ tenant_id: tenantId, id }).first());
      });
    },
    /** Department ids where the user is listed with the role (agent or supervisor). */
    async departmentsOf(tenantId: string, userId: string): Promise<{ agentOf: string[]; supervisorOf: string[] }> {
      const rows = await db('department_members')
        .join('departments', 'departments.id', 'department_members.department_id')
        .where({ 'department_members.tenant_id': tenantId, 'department_members.user_id': userId })
        .whereNull('departments.deleted_at')
        .select('department_members.department_id as departmentId', 'department_members.role as role');
      return {
        agentOf: rows.filter((r) => r.role === 'agent').map((r) => String(r.departmentId)),
        supervisorOf: rows.filter((r) => r.role === 'supervisor').map((r) => String(r.departmentId)),
      };
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;

/** The user as the API returns it: never the password hash. */
export function publicUser(user: UserRecord, departments?: { agentOf: string[]; supervisorOf: string[] }): User {
  const { passwordHash, tenantId: _tenant, emailVerified: _verified, ...rest } = user;
  return {
    ...rest,
    hasPassword: Boolean(passwordHash),
    ...(departments && { departments: departments.agentOf, supervisorOf: departments.supervisorOf }),
  };
}
