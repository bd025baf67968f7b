import type { RegisterLookups } from '../../../db/repositories/register-lookups';
import type { RegisterRepository, RegisterTable } from '../../../db/repositories/register-repository';
import type { TenantRow } from '../../../db/repositories/tenant-repository';
import type { BlobStore } from '../../files/blob-store';
import type { RegisterHooks } from '../register-hooks';
import type { ContingencyScheduler } from './contingencies-hooks';

export type { ContingencyScheduler } from './contingencies-hooks';
import { agentsHooks } from './agents-hooks';
import { contactsHooks } from './contacts-hooks';
import { contingenciesHooks } from './contingencies-hooks';
import { departmentsHooks } from './departments-hooks';
import { dmQrcodesHooks } from './dm-qrcodes-hooks';
import { fixedMessagesHooks } from './fixed-messages-hooks';
import { tagsHooks } from './tags-hooks';
import { integrationDefinitionHooks } from '../../integrations/integration-definition-hooks';

interface HookDeps {
  lookups: RegisterLookups;
  repo: RegisterRepository;
  blobs: BlobStore;
  queuesTable: RegisterTable;
  sendSignInLink(tenant: TenantRow, userId: string): Promise<void>;
  sendAccountNotice?(tenant: TenantRow, to: { email: string; displayName: string }, change: { email?: string; password?: boolean }): Promise<void>;
  /** Auth's end of every session of a user (disabled, deleted, credentials changed): sockets close at once. */
  revokeUser?(tenant: TenantRow, userId: string, reason: 'disabled' | 'deleted' | 'credentials_changed'): Promise<void>;
  scheduleContingencyEnd?: ContingencyScheduler;
}

/** The registers that need rules beyond their definition, by register name. */
export function registerHooks(deps: HookDeps): Record<string, RegisterHooks> {
  return {
    contacts: contactsHooks(deps.lookups),
    agents: agentsHooks({ lookups: deps.lookups, sendSignInLink: deps.sendSignInLink, sendAccountNotice: deps.sendAccountNotice, revokeUser: deps.revokeUser }),
    departaments: departmentsHooks({ lookups: deps.lookups, repo: deps.repo, queues: deps.queuesTable }),
    fixedMessages: fixedMessagesHooks(),
    tags: tagsHooks(deps.lookups),
    dm_qrcodes: dmQrcodesHooks({ lookups: deps.lookups, blobs: deps.blobs }),
    contingecies: contingenciesHooks({ scheduleEnd: deps.scheduleContingencyEnd }),
    integrations: integrationDefinitionHooks({ repo: deps.repo }),
  };
}
