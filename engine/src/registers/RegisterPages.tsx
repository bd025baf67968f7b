import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import Edit from '@mui/icons-material/Edit';
import { useDataProvider, useGetOne, useResourceContext } from 'react-admin';
import { useLocation, useNavigate, useParams } from 'react-admin';
import { format, messages } from '@atendimento/schemas';
import { newItemTitle, type RegisterRecord } from '@atendimento/schemas/registers/index';
import { showToast } from '../ui/toast';
import { loadRegisterViews, useRegisterView, type RegisterView } from './definitions';
import { RegisterForm } from './form/RegisterForm';
import { RegisterList } from './list/RegisterList';
import { SHOW_OVERRIDES } from './show/NegotiationShow';
import { useEffect, useState } from 'react';

/** Waits for this user's view of the resource's register; a register the server does not offer shows why. */
function WithView({ children }: { children: (view: RegisterView) => ReactNode }) {
  const resource = useResourceContext() ?? '';
  const state = useRegisterView(resource);
  if (state.status === 'loading') return <Typography sx={{ p: 3 }} color="text.secondary">{messages.table.loading}</Typography>;
  if (state.status === 'missing') return <Alert severity="warning" sx={{ m: 2 }}>{messages.auth.forbidden}</Alert>;
  if (state.status === 'error') return <Alert severity="error" sx={{ m: 2 }}>{state.message}</Alert>;
  return <>{children(state.view)}</>;
}

function FormPage({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Paper sx={{ p: { xs: 2, md: 3 }, mt: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 2 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

/**
 * The registers shown as tabs above a list: a register with children (FAQ → categories,
 * questions) and each of those children show the same tabs, so the family stays one screen.
 */
function useTabs(view: RegisterView | null): { names: string[]; labels: Record<string, string> } {
  const [tabs, setTabs] = useState<{ names: string[]; labels: Record<string, string> }>({ names: [], labels: {} });
  const name = view?.name ?? '';
  useEffect(() => {
    if (!view) return;
    let live = true;
    void loadRegisterViews().then((views) => {
      if (!live) return;
      const parent = view.list.children.length ? view : [...views.values()].find((v) => v.list.children.includes(view.name));
      if (!parent) return setTabs({ names: [], labels: {} });
      // Only the children this user may open (the server listed them).
      const names = [parent.name, ...parent.list.children.filter((child) => views.has(child))];
      setTabs({ names, labels: Object.fromEntries(names.map((n) => [n, views.get(n)?.list.label ?? n])) });
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name]);
  return tabs;
}

function ListWithTabs({ view }: { view: RegisterView }) {
  const tabs = useTabs(view);
  return <RegisterList view={view} tabs={tabs.names} childLabels={tabs.labels} />;
}

/** /{register}: the generic table. */
export function RegisterListPage() {
  return <WithView>{(view) => <ListWithTabs view={view} />}</WithView>;
}

function useSaved(view: RegisterView) {
  const navigate = useNavigate();
  return () => {
    showToast(messages.table.saved, 'success');
    navigate(`/${view.list.name}`);
  };
}

function CreateForm({ view }: { view: RegisterView }) {
  const dataProvider = useDataProvider();
  const navigate = useNavigate();
  const saved = useSaved(view);
  const copy = (useLocation().state as { record?: Record<string, unknown> } | null)?.record ?? null;
  return (
    <FormPage title={newItemTitle(view.list)}>
      <RegisterForm
        view={view}
        mode="create"
        record={copy}
        onCancel={() => navigate(`/${view.list.name}`)}
        onSave={async (data) => {
          await dataProvider.create(view.list.name, { data });
          saved();
        }}
      />
    </FormPage>
  );
}

/** /{register}/create: a new record (or a duplicate, from the row's copy). */
export function RegisterCreatePage() {
  return <WithView>{(view) => <CreateForm view={view} />}</WithView>;
}

function RecordForm({ view, mode }: { view: RegisterView; mode: 'edit' | 'show' }) {
  const { id = '' } = useParams();
  const dataProvider = useDataProvider();
  const navigate = useNavigate();
  const saved = useSaved(view);
  const { data: record, isPending, error } = useGetOne<RegisterRecord>(view.list.name, { id }, { retry: false });
  const item = view.list.itemLabel;
  if (isPending) return <Typography sx={{ p: 3 }} color="text.secondary">{messages.table.loading}</Typography>;
  if (error || !record) return <Alert severity="error" sx={{ m: 2 }}>{(error as Error | null)?.message ?? messages.errors.notFound}</Alert>;
  const title = format(mode === 'edit' ? messages.registers.editItem : messages.registers.showItem, { item });
  // The one hand-written addition the issue allows (negotiations' photos and links).
  const Override = view.list.showOverride ? SHOW_OVERRIDES[view.list.showOverride] : undefined;
  const editButton =
    mode === 'show' && !view.readOnly && view.list.rowActions.includes('edit') ? (
      <Button startIcon={<Edit />} onClick={() => navigate(`/${view.list.name}/${encodeURIComponent(record.id)}`)}>
        {messages.registers.edit}
      </Button>
    ) : undefined;
  return (
    <FormPage title={title} action={editButton}>
      {mode === 'show' && Override && <Override record={record} />}
      <RegisterForm
        key={`${record.id}:${mode}`}
        view={view}
        mode={mode}
        record={record}
        onCancel={() => navigate(`/${view.list.name}`)}
        onSave={async (data) => {
          await dataProvider.update(view.list.name, { id: record.id, data, previousData: record });
          saved();
        }}
      />
    </FormPage>
  );
}

/** /{register}/:id: edit a record. */
export function RegisterEditPage() {
  return <WithView>{(view) => <RecordForm view={view} mode="edit" />}</WithView>;
}

/** /{register}/:id/show: a record read-only. */
export function RegisterShowPage() {
  return <WithView>{(view) => <RecordForm view={view} mode="show" />}</WithView>;
}
