import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import LinkOff from '@mui/icons-material/LinkOff';
import PrivacyTip from '@mui/icons-material/PrivacyTip';
import Rule from '@mui/icons-material/Rule';
import Send from '@mui/icons-material/Send';
import Visibility from '@mui/icons-material/Visibility';
import { useNavigate } from 'react-admin';
import { useRecordContext, useRefresh } from 'react-admin';
import { isAdmin, messages } from '@atendimento/schemas';
import type { RegisterRecord } from '@atendimento/schemas/registers/index';
import { apiRequest } from '../../api/api';
import { useSessionUser } from '../../api/useSessionUser';
import { showToast } from '../../ui/toast';
import type { RegisterView } from '../definitions';
import { formDataOf } from '../form/formData';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { RemoveClientsDialog } from './RemoveClientsDialog';
import { DepartmentRulesDialog } from './DepartmentRulesDialog';
import { LgpdDialog } from './LgpdDialog';

function Action({ label, onClick, children }: { label: string; onClick: () => void; children: React.ReactNode }) {
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} onClick={(event) => { event.stopPropagation(); onClick(); }}>
        {children}
      </IconButton>
    </Tooltip>
  );
}

/**
 * The row buttons of list.json `rowActions`: view, edit, delete (confirmed, soft delete),
 * duplicate (a new form filled with a copy), 'Enviar Login' for agents and the automatic
 * message rules of a department ('Regras', docs/routing.md), a contact's personal data
 * ('Dados pessoais (LGPD)', admins only, docs/lgpd.md). Writes are hidden
 * when the register is read-only for this tenant.
 */
export function RowActions({ view }: { view: RegisterView }) {
  const record = useRecordContext<RegisterRecord>();
  const navigate = useNavigate();
  const refresh = useRefresh();
  const [confirming, setConfirming] = useState(false);
  const [removingClients, setRemovingClients] = useState(false);
  const [editingRules, setEditingRules] = useState(false);
  const [lgpd, setLgpd] = useState(false);
  const sessionUser = useSessionUser();
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  const { name, rowActions } = view.list;
  const base = `/${name}/${encodeURIComponent(record.id)}`;
  const writable = !view.readOnly;
  // One's own account is not deleted from here (the server refuses it: 403 self_delete).
  const ownAccount = name === 'agents' && record.id === sessionUser?.id;
  const clients = Array.isArray(record.clients) ? record.clients.filter((c): c is string => typeof c === 'string') : [];

  async function remove() {
    setBusy(true);
    try {
      await apiRequest(`/api/${name}/${encodeURIComponent(record!.id)}`, { method: 'DELETE' });
      showToast(messages.table.deleted, 'success');
      setConfirming(false);
      refresh();
    } catch {
      // apiRequest toasted the server's message.
    } finally {
      setBusy(false);
    }
  }

  async function sendLogin() {
    try {
      const { body } = await apiRequest<{ data?: { message?: string } }>(`${`/api/${name}/${encodeURIComponent(record!.id)}`}/sendLogin`, { method: 'POST' });
      showToast(body?.data?.message ?? messages.auth.accessEmailSent, 'success');
    } catch {
      // Toasted by apiRequest.
    }
  }

  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {rowActions.includes('show') && (
        <Action label={messages.registers.view} onClick={() => navigate(`${base}/show`)}>
          <Visibility fontSize="small" />
        </Action>
      )}
      {rowActions.includes('edit') && writable && (
        <Action label={messages.registers.edit} onClick={() => navigate(base)}>
          <Edit fontSize="small" />
        </Action>
      )}
      {rowActions.includes('duplicate') && writable && (
        <Action label={messages.registers.duplicate} onClick={() => navigate(`/${name}/create`, { state: { record: formDataOf(view.schema, record) } })}>
          <ContentCopy fontSize="small" />
        </Action>
      )}
      {rowActions.includes('removeClients') && writable && clients.length > 0 && (
        <Action label={messages.registers.removeClients} onClick={() => setRemovingClients(true)}>
          <LinkOff fontSize="small" />
        </Action>
      )}
      {rowActions.includes('sendLogin') && (
        <Action label={messages.registers.sendLogin} onClick={() => void sendLogin()}>
          <Send fontSize="small" />
        </Action>
      )}
      {rowActions.includes('rules') && writable && (
        <Action label={messages.routing.rulesAction} onClick={() => setEditingRules(true)}>
          <Rule fontSize="small" />
        </Action>
      )}
      {rowActions.includes('lgpd') && isAdmin(sessionUser) && (
        <Action label={messages.lgpd.action} onClick={() => setLgpd(true)}>
          <PrivacyTip fontSize="small" />
        </Action>
      )}
      {rowActions.includes('delete') && writable && !ownAccount && (
        <Action label={messages.registers.delete} onClick={() => setConfirming(true)}>
          <Delete fontSize="small" />
        </Action>
      )}
      {lgpd && <LgpdDialog id={record.id} name={String(record.displayName ?? record.name ?? record.id)} open onClose={() => setLgpd(false)} onErased={refresh} />}
      {editingRules && <DepartmentRulesDialog department={record} open onClose={() => setEditingRules(false)} onSaved={refresh} />}
      {removingClients && <RemoveClientsDialog collection={name} id={record.id} clients={clients} open onClose={() => setRemovingClients(false)} onDone={refresh} />}
      <ConfirmDeleteDialog open={confirming} busy={busy} onCancel={() => setConfirming(false)} onConfirm={() => void remove()} />
    </span>
  );
}
