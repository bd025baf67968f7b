import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { messages as seedTexts, type AppConfig, type User } from '@atendimento/schemas';
import { ConsoleProvider, type ConsoleApi, type ConsoleServices } from './ConsoleContext';
import { createFetchApi } from './backend/fetchApi';
import { chatPaths } from './model/chatApi';
import type { LiveSource } from './realtime/liveSource';
import { browserLiveSource } from './realtime/browserLiveSource';
import { createConsoleStores, type ConsoleStores } from './store/consoleStores';
import { Toaster } from './ui/Toaster';
import { ChatPane } from './features/open-chat/ChatPane';

/** The anonymous reader of the public page: no claims, no tabs. */
const READER: User = {
  id: 'anonymous',
  type: 'anonymous',
  displayName: '',
  email: '',
  photoUrl: null,
  claims: {},
  team: [],
  status: null,
  erpUserId: null,
  updatePass: false,
  active: true,
  departments: [],
  supervisorOf: [],
  lifeControl: { createdAt: new Date(0).toISOString(), updatedAt: null, deletedAt: null },
} as unknown as User;

const NO_CONFIG = { claims: {}, closeJustify: { justifies: [], obsRules: [], reportOnly: true, nextMaxDate: 5000 } } as unknown as AppConfig;

export interface PublicChatViewProps {
  /** The room's unguessable public token from the URL (never the room number). */
  roomToken: string;
  /** Stories and specs: services instead of the page's fetch and /ws. */
  api?: ConsoleApi;
  live?: LiveSource;
  stores?: ConsoleStores;
  now?: () => number;
}

/**
 * The public read-only chat /chat/:token (seed 002 §2 "Public chat screen"): the token is
 * exchanged for an anonymous access token limited to that room (POST /api/auth/anonymous), then
 * the room and its messages are read live. No menu, no close button, no composer.
 */
export function PublicChatView(props: PublicChatViewProps) {
  const tokenRef = useRef<string | null>(null);
  const [roomId, setRoomId] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const api = useMemo(() => props.api ?? createFetchApi(() => tokenRef.current), [props.api]);
  const [live, setLive] = useState<LiveSource | null>(props.live ?? null);
  const stores = useMemo(() => props.stores ?? createConsoleStores(), [props.stores]);

  useEffect(() => {
    let active = true;
    let own: ReturnType<typeof browserLiveSource> | null = null;
    api
      .request<{ data: { accessToken: string; roomId: string } }>(chatPaths.anonymous(), { method: 'POST', body: { roomToken: props.roomToken }, notify: false })
      .then(({ body }) => {
        if (!active) return;
        tokenRef.current = body.data.accessToken;
        if (!props.live) {
          own = browserLiveSource(() => tokenRef.current);
          setLive(own);
        }
        setRoomId(body.data.roomId);
      })
      .catch(() => active && setFailed(true));
    return () => {
      active = false;
      own?.close();
    };
  }, [api, props.roomToken, props.live]);

  const services = useMemo<ConsoleServices | null>(() => (live ? { api, live, user: READER, appConfig: NO_CONFIG } : null), [api, live]);

  if (failed) {
    return (
      <Box sx={{ p: 4, textAlign: 'center' }}>
        <Typography role="alert">{seedTexts.chat.loadFailed}</Typography>
      </Box>
    );
  }
  if (!roomId || !services) {
    return (
      <Box sx={{ p: 4, display: 'flex', justifyContent: 'center' }}>
        <CircularProgress />
      </Box>
    );
  }
  return (
    <Toaster>
      {(notify) => (
        <ConsoleProvider services={services} stores={stores} readOnly now={props.now} notify={notify}>
          <Box sx={{ height: '100vh', maxWidth: 960, mx: 'auto', p: 1, boxSizing: 'border-box' }} data-public-chat>
            <ChatPane roomId={roomId} />
          </Box>
        </ConsoleProvider>
      )}
    </Toaster>
  );
}
