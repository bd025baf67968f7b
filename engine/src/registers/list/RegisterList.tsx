import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import Delete from '@mui/icons-material/Delete';
import { Datagrid, List, Pagination, useListContext, useRefresh } from 'react-admin';
import { useNavigate } from 'react-admin';
import { messages } from '@atendimento/schemas';
import type { RegisterColumn, RegisterSchema } from '@atendimento/schemas/registers/index';
import { apiRequest } from '../../api/api';
import { showToast } from '../../ui/toast';
import type { RegisterView } from '../definitions';
import { ColumnValue } from './ColumnValue';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { RegisterToolbar } from './RegisterToolbar';
import { RowActions } from './RowActions';
import { useLiveRefresh } from './useLiveRefresh';

function schemaOf(view: RegisterView, field: string): RegisterSchema | undefined {
  return field.split('.').reduce<RegisterSchema | undefined>((node, key) => node?.properties?.[key], view.schema);
}

function labelOf(view: RegisterView, column: RegisterColumn): string {
  if (column.label) return column.label;
  if (column.field === 'lifeControl.createdAt') return 'Criado em';
  return schemaOf(view, column.field)?.title ?? column.field;
}

/** A column cell; Datagrid reads `source`, `label` and `sortable` from it for the header. */
function Column({ column, schema }: { column: RegisterColumn; schema?: RegisterSchema; source: string; label: string; sortable: boolean }) {
  return <ColumnValue column={column} schema={schema} />;
}

/** Bulk delete of the selected rows: confirmed, then PATCH /{collection}/remove (soft delete, all or nothing). */
function BulkDelete({ view }: { view: RegisterView }) {
  // The list's own selection (stored under its storeKey): cleared once the rows are gone.
  const { selectedIds, onUnselectItems } = useListContext();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button color="error" startIcon={<Delete />} onClick={() => setOpen(true)}>
        {messages.registers.deleteSelected}
      </Button>
      <ConfirmDeleteDialog
        open={open}
        busy={busy}
        onCancel={() => setOpen(false)}
        onConfirm={async () => {
          setBusy(true);
          try {
            await apiRequest(`/api/${view.list.name}/remove`, { method: 'PATCH', body: selectedIds });
            showToast(messages.table.deletedMany, 'success');
            onUnselectItems();
            refresh();
            setOpen(false);
          } catch {
            // Toasted by apiRequest.
          } finally {
            setBusy(false);
          }
        }}
      />
    </>
  );
}

/** The table, or the seed's loading text while the first page comes. */
function Table({ view, emptyText }: { view: RegisterView; emptyText?: string }) {
  const { isPending, selectedIds, sort, page, perPage, refetch } = useListContext();
  const { list } = view;
  useLiveRefresh({ collection: list.live, sort, page, perPage, refetch });
  if (isPending) {
    return (
      <Typography sx={{ p: 3 }} color="text.secondary">
        {messages.table.loading}
      </Typography>
    );
  }
  const bulk = list.toolbar.includes('bulkDelete') && !view.readOnly;
  return (
    <Datagrid
      rowClick={false}
      // react-admin draws the bulk bar 48px above the table, over our taller search row:
      // the table moves down while rows are selected so the bar has its own space.
      sx={{ mt: bulk && selectedIds.length > 0 ? 6 : 0, transition: 'margin-top 150ms' }}
      bulkActionButtons={bulk ? <BulkDelete view={view} /> : false}
      empty={
        <Typography sx={{ p: 3 }} color="text.secondary">
          {emptyText || messages.table.empty}
        </Typography>
      }
    >
      {list.columns.map((column) => {
        const schema = schemaOf(view, column.field);
        const sortable = column.sortable !== false && schema?.type !== 'array' && (list.filters.includes(column.field) || column.field === 'lifeControl.createdAt');
        return <Column key={column.field} column={column} schema={schema} source={column.field} label={labelOf(view, column)} sortable={sortable} />;
      })}
      <RowActions view={view} />
    </Datagrid>
  );
}

/** Tabs to the registers of one family (FAQ, its categories, its questions), on each of their lists. */
function ChildTabs({ view, tabs, labels }: { view: RegisterView; tabs?: string[]; labels: Record<string, string> }) {
  const navigate = useNavigate();
  const all = tabs && tabs.length ? tabs : view.list.children.length ? [view.list.name, ...view.list.children] : [];
  if (all.length < 2) return null;
  const current = all.includes(view.list.name) ? view.list.name : all[0]!;
  return (
    <Tabs value={current} onChange={(_, next: string) => navigate(`/${next}`)} sx={{ mb: 1 }}>
      {all.map((name) => (
        <Tab key={name} value={name} label={labels[name] ?? name} />
      ))}
    </Tabs>
  );
}

/**
 * The generic register table (seed 000 §2): react-admin's List on the simple-rest API with the
 * definition's columns, search, sort and page sizes (server-side paging with Content-Range),
 * row and toolbar actions.
 */
export function RegisterList({
  view,
  tabs,
  childLabels = {},
  searchDebounceMs,
  emptyText,
}: {
  view: RegisterView;
  tabs?: string[];
  childLabels?: Record<string, string>;
  searchDebounceMs?: number;
  /** Replaces 'Esta lista está vazia' (an integration's noItems text). */
  emptyText?: string;
}) {
  const { list } = view;
  return (
    <Box>
      <ChildTabs view={view} tabs={tabs} labels={childLabels} />
      <List
        resource={list.name}
        title={list.label}
        perPage={list.perPage}
        sort={list.sort}
        empty={false}
        actions={<RegisterToolbar view={view} searchDebounceMs={searchDebounceMs} />}
        pagination={<Pagination rowsPerPageOptions={list.pageSizes} />}
        storeKey={`${list.name}.registerList`}
        // On a phone the table is wider than the screen: it scrolls inside its card, so the
        // toolbar ('Novo', 'CSV') and the pagination stay on screen instead of being pushed off.
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } }}
      >
        <Table view={view} emptyText={emptyText} />
      </List>
    </Box>
  );
}
