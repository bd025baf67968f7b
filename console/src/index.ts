/**
 * The agent console "Atendimento" (seed 001) and the public chat page (seed 002). The engine
 * mounts `ServiceView` at "/" (or "/service" when a root view is configured) and
 * `PublicChatView` at "/chat/:id".
 */
export { ServiceView } from './ServiceView';
export { PublicChatView } from './PublicChatView';
export type { LiveSource, LiveSubscriptionLike } from './realtime/liveSource';
