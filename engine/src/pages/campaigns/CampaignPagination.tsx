import TablePagination from '@mui/material/TablePagination';
import portugueseMessages from 'ra-language-portuguese';

// ra-language-portuguese types its messages loosely (react-admin 3's shape).
const rowsPerPage = (portugueseMessages as { ra: { navigation: { page_rows_per_page: string } } }).ra.navigation.page_rows_per_page;

/**
 * The campaigns screens' pager: 10/15/20 rows, 'x-y de n'; a new page size goes back to the first
 * page. Labelled as the register lists are (react-admin's pt-BR 'Resultados por página:').
 */
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
      labelRowsPerPage={rowsPerPage} labelDisplayedRows={({ from, to, count }) => `${from}-${to} de ${count}`}
    />
  );
}
