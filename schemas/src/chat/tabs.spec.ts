import { describe, expect, it } from 'vitest';
import { defaultAppConfig } from '../app-config';
import { arrangeChatTabs, availableChatTabs, chatTabLabels, chatTabSettings, type ChatTabSetting } from './tabs';

/**
 * Seed 001 §2: "Tab order and attributes can be overridden by app configuration chatTabs".
 * The tenant orders, renames and hides tabs; it never grants one the claims deny.
 */
const agent = { claims: {} };
const supervisor = { claims: {}, supervisorOf: ['vendas'] };
const config = (chatTabs: ChatTabSetting[] | null, claims: Record<string, boolean> = {}) => ({ ...defaultAppConfig('t1', 'T1'), claims, chatTabs });

describe('chat tabs: the tenant chatTabs', () => {
  it('without chatTabs, the seed order', () => {
    expect(availableChatTabs(agent, config(null))).toEqual(['contacts', 'userChats', 'queuesChats', 'chatsHistories', 'internalChats']);
    expect(availableChatTabs(agent, config([]))).toEqual(['contacts', 'userChats', 'queuesChats', 'chatsHistories', 'internalChats']);
  });

  it('listed tabs come first in the listed order; the others follow in their default order', () => {
    const tabs = [{ id: 'chatsHistories' }, { id: 'queuesChats' }] as ChatTabSetting[];
    expect(availableChatTabs(supervisor, config(tabs))).toEqual(['chatsHistories', 'queuesChats', 'contacts', 'userChats', 'teamChats', 'internalChats']);
  });

  it('hidden tabs are removed; a label renames the tab, empty labels keep the seed title', () => {
    const tabs: ChatTabSetting[] = [{ id: 'queuesChats', label: '  Aguardando ' }, { id: 'internalChats', hidden: true }, { id: 'contacts', label: '' }];
    expect(availableChatTabs(agent, config(tabs))).toEqual(['queuesChats', 'contacts', 'userChats', 'chatsHistories']);
    const labels = chatTabLabels(config(tabs));
    expect(labels.queuesChats).toBe('Aguardando');
    expect(labels.contacts).toBe('Contatos');
    expect(labels.userChats).toBe('Meus');
  });

  it('never adds a tab the claims deny, whatever the list says', () => {
    const tabs: ChatTabSetting[] = [{ id: 'teamChats' }, { id: 'botChats', hidden: false }, { id: 'allQueuesChats' }, { id: 'mailChats' }, { id: 'queuesChats' }];
    // An agent is no supervisor (Equipe), has no bot / all-queues / inbox claim; the tenant disables Fila.
    expect(availableChatTabs(agent, config(tabs, { disableQueuesTab: true }))).toEqual(['contacts', 'userChats', 'chatsHistories', 'internalChats']);
    // The same list for a supervisor with the claims: listed first.
    expect(availableChatTabs({ claims: { enableBotTab: true }, supervisorOf: ['vendas'] }, config(tabs))).toEqual(['teamChats', 'botChats', 'queuesChats', 'contacts', 'userChats', 'chatsHistories', 'internalChats']);
    expect(arrangeChatTabs(['contacts', 'userChats'], [{ id: 'teamChats' }, { id: 'internalChats' }])).toEqual(['contacts', 'userChats']);
  });

  it("'Meus' cannot be hidden (the agent's own chats)", () => {
    expect(availableChatTabs(agent, config([{ id: 'userChats', hidden: true }]))).toContain('userChats');
  });

  it('ignores what the stored column may hold besides known tabs (free JSON before): unknown ids, repeats, junk', () => {
    const raw = [{ id: 'queuesChats', label: 'Primeiro' }, { id: 'queuesChats', label: 'Segundo', hidden: true }, { id: 'naoExiste' }, null, 'fila', { label: 'sem id' }, { id: 'contacts', hidden: 'sim' }];
    expect(chatTabSettings(raw)).toEqual([{ id: 'queuesChats', label: 'Primeiro' }, { id: 'contacts' }]);
    expect(chatTabSettings({ queuesChats: true })).toEqual([]);
    expect(arrangeChatTabs(['contacts', 'userChats', 'queuesChats'], raw)).toEqual(['queuesChats', 'contacts', 'userChats']);
  });
});
