import { PublicChatView } from '@atendimento/console/PublicChatView';

/** /chat/:id (seed 002 §2): the console's read-only public chat for the room token in the URL, no chrome. */
export function PublicChatPage({ id }: { id: string }) {
  // With no id, nothing happens (seed 002 §2 "Public chat screen").
  if (!id) return null;
  return <PublicChatView roomToken={id} />;
}
