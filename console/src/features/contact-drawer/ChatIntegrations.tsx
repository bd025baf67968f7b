import { useCallback, useEffect, useState } from 'react';
import { Box, IconButton, List, ListItem, ListItemText, Typography } from '@mui/material';
import Refresh from '@mui/icons-material/Refresh';
import { messages } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';

/** One integration's items for a chat, as GET /api/integration-chat/{chatId} answers (findByChatId). */
export interface ChatIntegrationSection {
  collection: string;
  name: string;
  title: string;
  noItems: string;
  titleField: string;
  source: 'erp' | 'local';
  total: number;
  items: Record<string, unknown>[];
  error?: boolean;
}

const shown = (value: unknown) => (value === null || value === undefined || value === '' ? null : typeof value === 'object' ? null : String(value));

/** A short line of an item's other fields ("A1_COD: 000123 · A1_LOJA: 01"). */
function details(item: Record<string, unknown>, titleField: string): string {
  return Object.entries(item)
    .filter(([key]) => key !== titleField && key !== 'id' && key !== 'lifeControl')
    .map(([key, value]) => (shown(value) === null ? null : `${key}: ${shown(value)}`))
    .filter(Boolean)
    .slice(0, 4)
    .join(' · ');
}

/**
 * The "Integrações" block of the contact drawer (seed 001 "Right contact drawer", seed 000 §3
 * findByChatId): for the open chat, every integration with findByChatId on that this user may
 * use, with the items found by the chat id (ERP query or local records) or its noItems text
 * ('Erro na Busca!' for a section whose ERP failed), and a refresh button. When the whole call
 * fails the block says 'Erro na Busca!'; with no integration, 'Sem registros'.
 */
export function ChatIntegrations({ chatId }: { chatId: string }) {
  const { api } = useConsole();
  const [sections, setSections] = useState<ChatIntegrationSection[] | null>(null);
  const [failed, setFailed] = useState(false);
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
        <Box key={section.collection} component="section" aria-label={section.title} sx={{ mt: 1 }}>
          <Typography variant="body2" component="h4" sx={{ fontWeight: 600 }}>
            {section.title}
          </Typography>
          {section.items.length === 0 ? (
            <Typography variant="body2" color={section.error ? 'error' : 'text.secondary'}>
              {section.noItems}
            </Typography>
          ) : (
            <List dense disablePadding>
              {section.items.map((item, index) => (
                <ListItem key={String(item.id ?? index)} disableGutters>
                  <ListItemText primary={shown(item[section.titleField]) ?? shown(Object.values(item)[0]) ?? '—'} secondary={details(item, section.titleField) || null} />
                </ListItem>
              ))}
            </List>
          )}
        </Box>
      ))}
    </Box>
  );
}
