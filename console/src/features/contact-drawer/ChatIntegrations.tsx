import { useCallback, useEffect, useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, IconButton, List, ListItem, ListItemText, Typography } from '@mui/material';
import Refresh from '@mui/icons-material/Refresh';
import Add from '@mui/icons-material/Add';
import Edit from '@mui/icons-material/Edit';
import Delete from '@mui/icons-material/Delete';
import { messages } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import { texts } from '../../ui/texts';
import { IntegrationReports } from './IntegrationReports';
import type { ChatIntegrationSection } from '@atendimento/schemas/integrations/index';

export type { ChatIntegrationSection };

/** Items a section shows before 'Ver mais'. */
const FIRST_ITEMS = 3;

const shown = (value: unknown) => (value === null || value === undefined || value === '' ? null : typeof value === 'object' ? null : String(value));

/**
 * A short line of an item's other fields ("Cliente: Padaria Pão de Mel · Status: Faturado"), each
 * by its schema title when the section has one (ERP rows keep their column names). The field that
 * links the item to this chat is left out: it is the chat the agent has open.
 */
function details(item: Record<string, unknown>, section: Pick<ChatIntegrationSection, 'titleField' | 'linkField' | 'labels'>): string {
  return Object.entries(item)
    .filter(([key]) => key !== section.titleField && key !== section.linkField && key !== 'id' && key !== 'lifeControl')
    .map(([key, value]) => (shown(value) === null ? null : `${section.labels?.[key] ?? key}: ${shown(value)}`))
    .filter(Boolean)
    .slice(0, 4)
    .join(' · ');
}

/** A local record's id (ERP rows have none the records routes know). */
const recordId = (item: Record<string, unknown>) => (typeof item.id === 'string' || typeof item.id === 'number' ? String(item.id) : null);

/**
 * The "Integrações" block of the contact drawer (seed 001 "Right contact drawer", seed 000 §3
 * findByChatId): for the open chat, every integration with findByChatId on that this user may
 * use, with the items found by the chat id (ERP query or local records) or its noItems text
 * ('Erro na Busca!' for a section whose ERP failed), and a refresh button. When the whole call
 * fails the block says 'Erro na Busca!'; with no integration, 'Sem registros'.
 * Each section has add (the record form, starting with the chat in its link field), 'Ver mais'
 * (past the first items), and per local record edit (its page) and delete (the seed's
 * confirmation, then DELETE and a refresh; the server's refusal is toasted). Below, the
 * "Rel. {title}" buttons of report integrations.
 */
export function ChatIntegrations({ chatId }: { chatId: string }) {
  const { api, notify } = useConsole();
  const [sections, setSections] = useState<ChatIntegrationSection[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [deleting, setDeleting] = useState<{ collection: string; id: string } | null>(null);
  const load = useCallback(async () => {
    setSections(null);
    setFailed(false);
    try {
      const { body } = await api.request<{ data: ChatIntegrationSection[] }>(`/api/integration-chat/${encodeURIComponent(chatId)}`, { notify: false });
      setSections(Array.isArray(body?.data) ? body.data : []);
    } catch {
      setFailed(true);
      setSections([]);
    }
  }, [api, chatId]);
  useEffect(() => void load(), [load]);

  const remove = async () => {
    if (!deleting) return;
    const { collection, id } = deleting;
    setDeleting(null);
    try {
      await api.request(`/api/integration/${encodeURIComponent(collection)}/${encodeURIComponent(id)}`, { method: 'DELETE', notify: false });
      notify(messages.table.deleted, 'success');
      await load();
    } catch (error) {
      notify((error as Error).message, 'error');
    }
  };

  return (
    <Box component="section" aria-label={messages.contact.integrations}>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography variant="subtitle2" component="h3" sx={{ flex: 1 }}>
          {messages.contact.integrations}
        </Typography>
        <IconButton size="small" aria-label={messages.shell.update} onClick={() => void load()}>
          <Refresh fontSize="small" />
        </IconButton>
      </Box>
      {sections === null && (
        <Typography variant="body2" color="text.secondary">
          {messages.table.loading}
        </Typography>
      )}
      {sections?.length === 0 && (
        <Typography variant="body2" color={failed ? 'error' : 'text.secondary'}>
          {failed ? messages.table.erpSearchFailed : messages.table.noRecords}
        </Typography>
      )}
      {sections?.map((section) => (
        <IntegrationSection key={section.collection} section={section} chatId={chatId} onDelete={(id) => setDeleting({ collection: section.collection, id })} />
      ))}
      <IntegrationReports />
      <Dialog open={deleting !== null} onClose={() => setDeleting(null)}>
        <DialogContent>
          <DialogContentText>{messages.table.confirmDelete}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)}>{messages.table.cancel}</Button>
          <Button color="error" onClick={() => void remove()}>
            {messages.table.delete}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

function IntegrationSection({ section, chatId, onDelete }: { section: ChatIntegrationSection; chatId: string; onDelete: (id: string) => void }) {
  const { navigate } = useConsole();
  const [all, setAll] = useState(false);
  const base = `/integration/${encodeURIComponent(section.collection)}`;
  const items = all ? section.items : section.items.slice(0, FIRST_ITEMS);
  const add = () => navigate(`${base}/create`, section.linkField ? { record: { [section.linkField]: chatId } } : undefined);
  return (
    <Box component="section" aria-label={section.title} sx={{ mt: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography variant="body2" component="h4" sx={{ fontWeight: 600, flex: 1 }}>
          {section.title}
        </Typography>
        {!section.error && (
          <IconButton size="small" aria-label={messages.registers.add} title={messages.registers.add} onClick={add}>
            <Add fontSize="small" />
          </IconButton>
        )}
      </Box>
      {section.items.length === 0 ? (
        <Typography variant="body2" color={section.error ? 'error' : 'text.secondary'}>
          {section.noItems}
        </Typography>
      ) : (
        <List dense disablePadding>
          {items.map((item, index) => {
            const id = recordId(item);
            const title = shown(item[section.titleField]) ?? shown(Object.values(item)[0]) ?? '—';
            return (
              <ListItem
                key={id ?? index}
                disableGutters
                secondaryAction={
                  id && section.source === 'local' ? (
                    <>
                      <IconButton size="small" edge="end" aria-label={`${messages.registers.edit} ${title}`} onClick={() => navigate(`${base}/${encodeURIComponent(id)}`)}>
                        <Edit fontSize="small" />
                      </IconButton>
                      <IconButton size="small" edge="end" aria-label={`${messages.registers.delete} ${title}`} onClick={() => onDelete(id)}>
                        <Delete fontSize="small" />
                      </IconButton>
                    </>
                  ) : null
                }
              >
                <ListItemText primary={title} secondary={details(item, section) || null} />
              </ListItem>
            );
          })}
        </List>
      )}
      {!all && section.items.length > FIRST_ITEMS && (
        <Button size="small" onClick={() => setAll(true)}>
          {texts.drawer.seeMore}
        </Button>
      )}
    </Box>
  );
}
