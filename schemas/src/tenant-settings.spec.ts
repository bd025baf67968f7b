import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { APP_ROUTES } from './app-routes';
import { defaultAppConfig } from './app-config';
import { DEFAULT_TIME_ZONE } from './chat/closing';
import { defaultRemainInChat } from './chat/transfer';
import { REGISTERS } from './registers/catalog';
import { AJV_OPTIONS, configureAjv, fieldErrors, type RegisterSchema } from './registers/index';
import { applySettings, CLAIM_GROUPS, settingsOf, settingsRuleErrors, settingsTimeZone, TENANT_SETTINGS_SCHEMA, TENANT_SETTINGS_UI, TIME_ZONES } from './tenant-settings';

/**
 * The settings screen covers every tenant claim (issue 21: "every claim of the three seed
 * documents with a one-line Portuguese help"): the ones the seeds name, copied here, and the
 * ones the code reads, found in the sources. A claim missing from CLAIM_GROUPS fails here.
 */

/** Tenant (app configuration) claims named by seed documents 000, 001 and 002. */
const SEED_TENANT_CLAIMS = [
  // 000 §3 App configuration, §4 drawer, §6 tenant claims that show options.
  'externalClients', 'externalSalesmen', 'catalog', 'disableClientEdit', 'hideRightMenus', 'logoutLast', 'tagsPerDepto',
  'enableAgentStatusExporter', 'scheduleCampain', 'notifyTag', 'allowSecondaryEmail', 'filterChatsByTags', 'agentBotPriority',
  'depBotPriority', 'denyDisableDepartment', 'inbox', 'negotiations', 'allowFollowMe', 'publicRegister',
  // 001 §5 and §6 "Tenant/app flags seen" (transferJustify is the transfer list, hideIntegrations a department claim).
  'remainInChat', 'transferWithQueue', 'enableAbsentTransfer', 'allowOfflineTransfer', 'multiTags', 'hasNextContact',
  'setInternalMessageAsRead', 'disableChooseTransfer', 'disableChooseQueue', 'disableSetUnread', 'disableCloseChat',
  'disableCloseChatNoMessage', 'disableAskResearch', 'askResearch', 'askResearchCsat', 'backBeggining', 'disableRestartApp',
  'forceAgentMessage', 'reverseOrder', 'ascOrder', 'disableCopyToast', 'orderedChatMenu', 'enableChatOnHold', 'enableGroupChats',
  'enableBotTab', 'enableAllQueuesTab', 'disableQueuesTab', 'disableInternalChats', 'hideBlockedContacts', 'hideInactiveContacts',
  'npsFive', 'fixedDDI', 'fixedMessages', 'disableHideLoadedChat', 'disableDeleteMessages', 'disableTemplatesWithImages',
  'enableWideFixedMessagesAccess', 'tagWhenClose', 'disableNotificationDialog',
  // 002 §3 app config claims and dashboard flags.
  'exportAdminOnly', 'flowCharts', 'flowResultCharts', 'flowExpectedResult', 'flowResultsPerFlow', 'googleSignIn', 'likertScale5', 'likertScale10',
] as const;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE_DIRS = ['server/src', 'console/src', 'engine/src', 'schemas/src'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'fixtures' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.(spec|stories)\.tsx?$/.test(name) ? [path] : [];
  });
}

/** How the code reads a tenant claim: hasTenantClaim(config, 'x'), config.claims?.x, the tabs' and chat menu's helpers... */
const READS = [
  /hasTenantClaim\([^,()]+,\s*'(\w+)'\)/g,
  /\b(?:config|appConfig|tenantConfig)\??\.claims\??\.(\w+)/g,
  /\bflag\(user, config, '(\w+)'\)/g,
  /\bblockedBy\('(\w+)'\)/g,
  /\btenantClaim:\s*'(\w+)'/g,
];

/** Every tenant claim the product reads, with where. */
function claimsReadByCode(): Map<string, string> {
  const found = new Map<string, string>();
  for (const dir of SOURCE_DIRS) {
    for (const file of sources(join(ROOT, dir))) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of READS) for (const m of text.matchAll(pattern)) if (!found.has(m[1]!)) found.set(m[1]!, relative(ROOT, file));
    }
  }
  for (const route of APP_ROUTES) if (route.claim && !found.has(route.claim)) found.set(route.claim, `route ${route.path}`);
  for (const { list } of REGISTERS.values()) {
    const claims = [list.claim, list.ownerWideClaim, ...list.readOnlyClaims, ...Object.values(list.fieldClaims)].filter((c): c is string => Boolean(c));
    for (const claim of claims) if (!found.has(claim)) found.set(claim, `schemas/registers/${list.name}/list.json`);
  }
  return found;
}

const grouped = (): Map<string, string> => new Map(Object.entries(CLAIM_GROUPS).flatMap(([group, claims]) => Object.keys(claims).map((c) => [c, group] as [string, string])));

describe('tenant settings: claims', () => {
  it('has every tenant claim the seed documents name', () => {
    const groups = grouped();
    expect(SEED_TENANT_CLAIMS.filter((claim) => !groups.has(claim))).toEqual([]);
  });

  it('has every tenant claim the code reads', () => {
    const groups = grouped();
    const read = claimsReadByCode();
    // The scan itself works: it finds reads of each kind.
    for (const claim of ['disableCopyToast', 'transferWithQueue', 'disableQueuesTab', 'disableChooseQueue', 'enableAgentStatusExporter', 'sumarizeRoom', 'clients', 'externalClients', 'faqAnex', 'enableWideFixedMessagesAccess']) expect(read.has(claim), claim).toBe(true);
    expect([...read].filter(([claim]) => !groups.has(claim)).map(([claim, where]) => `${claim} (${where})`)).toEqual([]);
  });

  it('lists each claim once, a switch named by its one-line pt-BR sentence with the key as help', () => {
    const seen = new Set<string>();
    for (const [group, claims] of Object.entries(CLAIM_GROUPS)) {
      for (const [claim, help] of Object.entries(claims)) {
        expect(seen.has(claim), `${claim} twice`).toBe(false);
        seen.add(claim);
        expect(help, claim).toMatch(/^\S.{8,110}[.)]$/);
        expect(help, claim).not.toContain('\n');
        const ui = (TENANT_SETTINGS_UI[group] as Record<string, Record<string, string>>)[claim];
        expect(ui, claim).toEqual({ 'ui:widget': 'switch', 'ui:help': `Chave: ${claim}` });
        const props = (TENANT_SETTINGS_SCHEMA.properties as unknown as Record<string, { properties: Record<string, { type: unknown; title: unknown }> }>)[group]!.properties;
        expect(props[claim]?.type, claim).toBe('boolean');
        expect(props[claim]?.title, claim).toBe(help);
      }
    }
  });

  it('maps every claim onto app_config.claims and back, keeping what the screen does not edit', () => {
    const config = { ...defaultAppConfig('t1', 'T1'), claims: { transferWithQueue: true, ascOrder: true, clients: true, somethingElse: true } };
    const settings = settingsOf(config);
    expect(settings.transferencia.transferWithQueue).toBe(true);
    expect(settings.aparencia.ascOrder).toBe(true);
    expect(settings.atendimento.clients).toBe(true);
    expect(settings.aparencia.disableCopyToast).toBe(false);
    settings.aparencia.disableCopyToast = true;
    settings.transferencia.transferWithQueue = false;
    const next = applySettings(config, settings);
    expect(next.claims).toMatchObject({ disableCopyToast: true, transferWithQueue: false, ascOrder: true, clients: true, somethingElse: true });
  });

  it('shows an unset claim as the transfer applies it: remainInChat on (seed), the others off', () => {
    const config = { ...defaultAppConfig('t1', 'T1'), claims: {} };
    const settings = settingsOf(config);
    expect(settings.transferencia.remainInChat).toBe(true);
    expect(defaultRemainInChat(config)).toBe(true);
    expect(settings.transferencia.transferWithQueue).toBe(false);
    settings.transferencia.remainInChat = false;
    const next = applySettings(config, settings);
    expect(next.claims.remainInChat).toBe(false);
    expect(settingsOf(next).transferencia.remainInChat).toBe(false);
    expect(defaultRemainInChat(next)).toBe(false);
  });
});

describe('tenant settings: time zone', () => {
  const validate = configureAjv(new Ajv({ ...AJV_OPTIONS })).compile(TENANT_SETTINGS_SCHEMA);

  it('offers the Brazilian zones first and every zone Intl knows, as a select labelled in pt-BR', () => {
    expect(TIME_ZONES[0]).toBe(DEFAULT_TIME_ZONE);
    expect(TIME_ZONES).toEqual(expect.arrayContaining(['America/Noronha', 'America/Manaus', 'America/Rio_Branco', 'Europe/Lisbon', 'UTC', 'Asia/Tokyo']));
    expect(new Set(TIME_ZONES).size).toBe(TIME_ZONES.length);
    for (const zone of TIME_ZONES) expect(() => new Intl.DateTimeFormat('en-US', { timeZone: zone })).not.toThrow();
    const atendimento = TENANT_SETTINGS_SCHEMA.properties.atendimento.properties;
    expect(atendimento.timeZone.title).toBe('Fuso horário');
    const ui = (TENANT_SETTINGS_UI.atendimento as Record<string, Record<string, unknown>>).timeZone!;
    expect(ui['ui:widget']).toBe('select');
    expect((ui['ui:enumNames'] as Record<string, string>)[DEFAULT_TIME_ZONE]).toMatch(/Brasília/);
  });

  it('reads app_config.timeZone (default America/Sao_Paulo, aliases by their canonical id) and writes it back', () => {
    const base = defaultAppConfig('t1', 'T1');
    expect(settingsOf({ ...base, timeZone: undefined }).atendimento.timeZone).toBe(DEFAULT_TIME_ZONE);
    expect(settingsOf({ ...base, timeZone: 'America/Manaus' }).atendimento.timeZone).toBe('America/Manaus');
    expect(settingsOf({ ...base, timeZone: 'Brazil/East' }).atendimento.timeZone).toBe('America/Sao_Paulo');
    expect(settingsOf({ ...base, timeZone: 'Marte/Olympus' }).atendimento.timeZone).toBe(DEFAULT_TIME_ZONE);
    expect(settingsTimeZone('Etc/UTC')).toBe('UTC');
    const settings = settingsOf(base);
    settings.atendimento.timeZone = 'America/Rio_Branco';
    expect(validate(settings)).toBe(true);
    expect(applySettings(base, settings).timeZone).toBe('America/Rio_Branco');
  });

  it('refuses a zone Intl does not know with a pt-BR message on the field', () => {
    const settings = settingsOf(defaultAppConfig('t1', 'T1'));
    settings.atendimento.timeZone = 'America/Atlantida';
    expect(validate(settings)).toBe(false);
    expect(fieldErrors(TENANT_SETTINGS_SCHEMA as unknown as RegisterSchema, validate.errors)).toEqual([{ field: 'atendimento.timeZone', message: 'Escolha um fuso horário da lista' }]);
  });
});

describe('tenant settings: LGPD retention and chat tabs', () => {
  const validate = configureAjv(new Ajv({ ...AJV_OPTIONS })).compile(TENANT_SETTINGS_SCHEMA);
  const errorsOf = (settings: unknown) => (validate(settings) ? settingsRuleErrors(settings) : fieldErrors(TENANT_SETTINGS_SCHEMA as unknown as RegisterSchema, validate.errors));

  it('reads and writes app_config.retention under Encerramento; empty keeps', () => {
    const base = defaultAppConfig('t1', 'T1');
    expect(settingsOf(base).encerramento.retention).toEqual({ closedChatsDays: null, mediaDays: null });
    const settings = settingsOf({ ...base, retention: { closedChatsDays: 1825, mediaDays: 90 } });
    expect(settings.encerramento.retention).toEqual({ closedChatsDays: 1825, mediaDays: 90 });
    expect(errorsOf(settings)).toEqual([]);
    (settings.encerramento.retention as Record<string, unknown>).mediaDays = null;
    expect(applySettings(base, settings).retention).toEqual({ closedChatsDays: 1825, mediaDays: null });
    settings.encerramento.retention = {};
    expect(applySettings({ ...base, retention: { closedChatsDays: 10 } }, settings).retention).toBeNull();
    const props = (TENANT_SETTINGS_SCHEMA.properties.encerramento.properties.retention as { properties: Record<string, { title: string }> }).properties;
    expect(props.closedChatsDays!.title).toBe('Anonimizar chats encerrados após (dias)');
    expect(props.mediaDays!.title).toBe('Apagar arquivos de chats encerrados após (dias)');
  });

  it('refuses days outside 0–3650 or fractional, and files kept longer than the chats, in Portuguese', () => {
    const base = settingsOf(defaultAppConfig('t1', 'T1'));
    const withRetention = (retention: Record<string, unknown>) => ({ ...base, encerramento: { ...base.encerramento, retention } });
    expect(errorsOf(withRetention({ closedChatsDays: 3651 }))).toEqual([{ field: 'encerramento.retention.closedChatsDays', message: expect.stringMatching(/entre 0 e 3650/) }]);
    expect(errorsOf(withRetention({ mediaDays: 1.5 }))).toEqual([{ field: 'encerramento.retention.mediaDays', message: expect.stringMatching(/entre 0 e 3650/) }]);
    expect(errorsOf(withRetention({ closedChatsDays: 30, mediaDays: 90 }))).toEqual([{ field: 'encerramento.retention.mediaDays', message: expect.stringMatching(/até 30 dias/) }]);
    // 0 or empty on either side keeps: no rule between them.
    expect(errorsOf(withRetention({ closedChatsDays: 0, mediaDays: 90 }))).toEqual([]);
    expect(errorsOf(withRetention({ closedChatsDays: null, mediaDays: 90 }))).toEqual([]);
    expect(errorsOf(withRetention({ closedChatsDays: 90, mediaDays: 90 }))).toEqual([]);
  });

  it('edits app_config.chatTabs under Visões: a select of the tabs with their pt-BR titles, label, hidden', () => {
    const base = defaultAppConfig('t1', 'T1');
    expect(settingsOf(base).visoes.chatTabs).toEqual([]);
    const item = (TENANT_SETTINGS_SCHEMA.properties.visoes.properties.chatTabs as { items: { properties: { id: { oneOf: { const: string; title: string }[] } } } }).items.properties.id;
    expect(item.oneOf).toEqual(expect.arrayContaining([{ const: 'queuesChats', title: 'Fila', errorMessage: expect.any(String) }, { const: 'userChats', title: 'Meus', errorMessage: expect.any(String) }]));
    const settings = settingsOf(base);
    settings.visoes.chatTabs = [{ id: 'queuesChats', label: 'Aguardando', hidden: false }, { id: 'internalChats', hidden: true }];
    expect(errorsOf(settings)).toEqual([]);
    const next = applySettings(base, settings);
    expect(next.chatTabs).toEqual([{ id: 'queuesChats', label: 'Aguardando' }, { id: 'internalChats', hidden: true }]);
    expect(settingsOf(next).visoes.chatTabs).toEqual([{ id: 'queuesChats', label: 'Aguardando', hidden: false }, { id: 'internalChats', label: null, hidden: true }]);
    settings.visoes.chatTabs = [];
    expect(applySettings(next, settings).chatTabs).toBeNull();
  });

  it("refuses an unknown tab, a repeated tab and hiding 'Meus', in Portuguese", () => {
    const base = settingsOf(defaultAppConfig('t1', 'T1'));
    const withTabs = (chatTabs: unknown[]) => ({ ...base, visoes: { ...base.visoes, chatTabs } });
    expect(errorsOf(withTabs([{ id: 'naoExiste' }]))).toEqual([{ field: 'visoes.chatTabs.0.id', message: 'Escolha uma aba da lista' }]);
    expect(errorsOf(withTabs([{ id: 'queuesChats' }, { id: 'queuesChats', hidden: true }]))).toEqual([{ field: 'visoes.chatTabs.1.id', message: "A aba 'Fila' já está na lista" }]);
    expect(errorsOf(withTabs([{ id: 'userChats', hidden: true }]))).toEqual([{ field: 'visoes.chatTabs.0.hidden', message: "A aba 'Meus' não pode ser oculta" }]);
    expect(errorsOf(withTabs([{ id: 'contacts', label: 'x'.repeat(31) }]))).toEqual([{ field: 'visoes.chatTabs.0.label', message: 'Rótulo de até 30 caracteres' }]);
  });
});

describe('tenant settings: list entries', () => {
  it('names one entry of every list (the screen numbers it: Justificativa 1, Status 1)', () => {
    const lists: Record<string, unknown> = {};
    for (const [group, node] of Object.entries(TENANT_SETTINGS_SCHEMA.properties)) {
      for (const [field, property] of Object.entries(node.properties as Record<string, { type?: unknown; items?: { title?: unknown } }>)) {
        if (property.type === 'array') lists[`${group}.${field}`] = property.items?.title;
      }
    }
    expect(lists).toEqual({
      'encerramento.justifies': 'Justificativa',
      'encerramento.obsRules': 'Regra',
      'transferencia.justifies': 'Justificativa',
      'aparencia.statusList': 'Status',
      'erp.urls': 'Endereço',
      'visoes.hiddenViews': 'Tela',
      'visoes.hiddenTemplates': 'Template',
      'visoes.chatTabs': 'Aba',
    });
  });
});
