import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react';
import { CampaignPagination } from './CampaignPagination';

/** The pager with its own state, as the campaigns screens hold it. */
function Pager({ total }: { total: number }) {
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(10);
  return (
    <>
      <CampaignPagination total={total} page={page} perPage={perPage} onPage={setPage} onPerPage={setPerPage} />
      <output data-testid="state">{`page=${page} perPage=${perPage}`}</output>
    </>
  );
}

const meta = {
  title: 'Páginas/Campanhas/Paginação',
  component: Pager,
  args: { total: 37 },
} satisfies Meta<typeof Pager>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 37 rows, 10 per page. */
export const Default: Story = {};
