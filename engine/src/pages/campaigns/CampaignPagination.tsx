import TablePagination from '@mui/material/TablePagination';

/** The campaigns screens' pager: 10/15/20 rows, 'x-y de n'; a new page size goes back to the first page. */
export function CampaignPagination({ total, page, perPage, onPage, onPerPage }: {
  total: number;
  page: number;
  perPage: number;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
}) {
  return (
    <TablePagination
      component="div" count={total} page={page} rowsPerPage={perPage} rowsPerPageOptions={[10, 15, 20]}
      onPageChange={(_e, p) => onPage(p)} onRowsPerPageChange={(e) => (onPerPage(Number(e.target.value)), onPage(0))}
      labelRowsPerPage="" labelDisplayedRows={({ from, to, count }) => `${from}-${to} de ${count}`}
    />
  );
}
