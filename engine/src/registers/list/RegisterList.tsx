import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import Delete from '@mui/icons-material/Delete';
import { Datagrid, List, Pagination, useListContext, useRefresh, useUnselectAll } from 'react-admin';
import { useLocation, useNavigate } from 'react-admin';
import { messages } from '@atendimento/schemas';
import type { RegisterColumn, RegisterSchema } from '@atendimento/schemas/registers/index';
import { apiRequest } from '../../api/api';
import { showToast } from '../../ui/toast';
import type { RegisterView } from '../definitions';
import { ColumnValue } from './ColumnValue';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { RegisterToolbar } from './RegisterToolbar';
import { RowActions } from './RowActions';

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
  const { selectedIds } = useListContext();
  const unselectAll = useUnselectAll(view.list.name);
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
            unselectAll();
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
function Table({ view }: { view: RegisterView }) {
  const { isPending } = useListContext();
  const { list } = view;
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
      bulkActionButtons={bulk ? <BulkDelete view={view} /> : false}
      empty={
        <Typography sx={{ p: 3 }} color="text.secondary">
          {messages.table.empty}
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

/** Tabs to the registers reached from this one's screen (FAQ → categories, questions). */
function ChildTabs({ view, labels }: { view: RegisterView; labels: Record<string, string> }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  if (view.list.children.length === 0 && !view.list.menu) return null;
  if (view.list.children.length === 0) return null;
  const all = [view.list.name, ...view.list.children];
  const current = all.find((name) => pathname.startsWith(`/${name}`)) ?? view.list.name;
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
export function RegisterList({ view, childLabels = {}, searchDebounceMs }: { view: RegisterView; childLabels?: Record<string, string>; searchDebounceMs?: number }) {
  const { list } = view;
  return (
    <Box>
      <ChildTabs view={view} labels={childLabels} />
      <List
        resource={list.name}
        title={list.label}
        perPage={list.perPage}
        sort={list.sort}
        empty={false}
        actions={<RegisterToolbar view={view} searchDebounceMs={searchDebounceMs} />}
        pagination={<Pagination rowsPerPageOptions={list.pageSizes} />}
        storeKey={`${list.name}.registerList`}
      >
        <Table view={view} />
      </List>
    </Box>
  );
}
