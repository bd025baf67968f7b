import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react';
import { SearchFilterFields } from './SearchFilterFields';
import type { SearchFilterFieldsProps, SearchFilters } from './SearchBox';

const empty: SearchFilters = { text: '', nps: [0, 10], dates: null, myContacts: false, agents: [], departments: [], tags: [], channels: [] };
const options: SearchFilterFieldsProps['options'] = {
  agents: [{ id: 'ana', label: 'Ana Agente' }, { id: 'bruno', label: 'Bruno Agente' }],
  departments: [{ id: 'vendas', label: 'Vendas' }, { id: 'suporte', label: 'Suporte' }],
  tags: [{ id: 'tag-vip', label: 'VIP' }],
  channels: [{ id: 'site', label: 'Chat do site' }],
};

/** The fields hold their own state here, as SearchBox holds them for the search. */
function Harness(props: Omit<SearchFilterFieldsProps, 'filters' | 'setFilters' | 'options'> & { onFilters?: (filters: SearchFilters) => void }) {
  const [filters, setFilters] = useState<SearchFilters>(empty);
  return (
    <SearchFilterFields
      {...props}
      options={options}
      filters={filters}
      setFilters={(next) => setFilters((current) => {
        const value = typeof next === 'function' ? next(current) : next;
        props.onFilters?.(value);
        return value;
      })}
    />
  );
}

const meta: Meta<typeof Harness> = {
  title: 'Console/SearchFilterFields',
  component: Harness,
  args: { tab: 'userChats', nps: null },
};
export default meta;
type Story = StoryObj<typeof Harness>;

/** An agent's menu: agents, departments, tags, channels and 'Meus contatos'. */
export const Agent: Story = {};
/** Who reads surveys also gets the NPS range. */
export const WithNps: Story = { args: { nps: { min: 0, max: 10 } } };
/** 'Histórico' adds the date range. */
export const History: Story = { args: { tab: 'chatsHistories' } };
