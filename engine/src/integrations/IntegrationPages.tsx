import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import Edit from '@mui/icons-material/Edit';
import { useDataProvider, useGetOne, useLocation, useNavigate, useParams } from 'react-admin';
import { format, messages } from '@atendimento/schemas';
import { newItemTitle, type RegisterRecord } from '@atendimento/schemas/registers/index';
import { showToast } from '../ui/toast';
import { RegisterForm } from '../registers/form/RegisterForm';
import { RegisterList } from '../registers/list/RegisterList';
import { useIntegrationViews, type IntegrationView } from './integrationViews';
import { DocumentActions } from './DocumentActions';

/** Waits for this user's integrations; one the server does not offer shows why. */
function WithIntegration({ match, children }: { match: (view: IntegrationView) => boolean; children: (integration: IntegrationView) => ReactNode }) {
  const views = useIntegrationViews();
  if (!views) return <Typography sx={{ p: 3 }} color="text.secondary">{messages.table.loading}</Typography>;
  const integration = views.find(match);
  if (!integration) return <Alert severity="warning" sx={{ m: 2 }}>{messages.auth.forbidden}</Alert>;
  return <>{children(integration)}</>;
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
 * /{register}: the generic register table on the integration's records. The view's list name
 * is `integration/{collection}`, so the table, its row actions and bulk delete talk to
 * /api/integration/{collection}; a changed definition re-renders it with the new columns.
 */
export function IntegrationListPage({ register }: { register: string }) {
  return <WithIntegration match={(v) => v.register === register}>{(integration) => <RegisterList view={integration.view} emptyText={integration.noItems} />}</WithIntegration>;
}

/** The collection of /integration/{collection}/... (from the path, so the pages work under any route table). */
function useCollection(): string {
  const { pathname } = useLocation();
  return decodeURIComponent(/^\/integration\/([^/]+)/.exec(pathname)?.[1] ?? '');
}

/** /integration/{collection}/create: the form generated from the integration's schema. */
export function IntegrationCreatePage() {
  const collection = useCollection();
  const dataProvider = useDataProvider();
  const navigate = useNavigate();
  const copy = (useLocation().state as { record?: Record<string, unknown> } | null)?.record ?? null;
  return (
    <WithIntegration match={(v) => v.collection === collection}>
      {({ view, register }) => (
        <FormPage title={newItemTitle(view.list)}>
          {/* A new schema (edited live) is a new form: its validator is compiled for that schema only. */}
          <RegisterForm
            key={view.validatorUrl}
            view={view}
            mode="create"
            record={copy}
            onCancel={() => navigate(`/${register}`)}
            onSave={async (data) => {
              await dataProvider.create(view.list.name, { data });
              showToast(messages.table.saved, 'success');
              navigate(`/${register}`);
            }}
          />
        </FormPage>
      )}
    </WithIntegration>
  );
}

function RecordPage({ integration, mode }: { integration: IntegrationView; mode: 'edit' | 'show' }) {
  const { id = '' } = useParams();
  const dataProvider = useDataProvider();
  const navigate = useNavigate();
  const { view, register } = integration;
  const { data: record, isPending, error } = useGetOne<RegisterRecord>(view.list.name, { id }, { retry: false });
  if (isPending) return <Typography sx={{ p: 3 }} color="text.secondary">{messages.table.loading}</Typography>;
  if (error || !record) return <Alert severity="error" sx={{ m: 2 }}>{(error as Error | null)?.message ?? messages.errors.notFound}</Alert>;
  const item = view.list.itemLabel;
  const actions = (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <DocumentActions collection={integration.collection} id={record.id} documents={integration.documents} paramsSchema={integration.paramsSchema ?? null} />
      {mode === 'show' && (
        <Button startIcon={<Edit />} onClick={() => navigate(`/${view.list.name}/${encodeURIComponent(record.id)}`)}>
          {messages.registers.edit}
        </Button>
      )}
    </Box>
  );
  return (
    <FormPage title={format(mode === 'edit' ? messages.registers.editItem : messages.registers.showItem, { item })} action={actions}>
      <RegisterForm
        key={`${record.id}:${mode}:${view.validatorUrl}`}
        view={view}
        mode={mode}
        record={record}
        onCancel={() => navigate(`/${register}`)}
        onSave={async (data) => {
          await dataProvider.update(view.list.name, { id: record.id, data, previousData: record });
          showToast(messages.table.saved, 'success');
          navigate(`/${register}`);
        }}
      />
    </FormPage>
  );
}

/** /integration/{collection}/:id: edit a record. */
export function IntegrationEditPage() {
  const collection = useCollection();
  return <WithIntegration match={(v) => v.collection === collection}>{(integration) => <RecordPage integration={integration} mode="edit" />}</WithIntegration>;
}

/** /integration/{collection}/:id/show: a record read-only. */
export function IntegrationShowPage() {
  const collection = useCollection();
  return <WithIntegration match={(v) => v.collection === collection}>{(integration) => <RecordPage integration={integration} mode="show" />}</WithIntegration>;
}
