import { Typography } from '@mui/material';
import { format } from '@atendimento/schemas';
import type { ChatMessage } from '../../model/chat';
import { texts } from '../../ui/texts';
import { RichText } from '../../ui/RichText';
import { AudioMessage, DocumentMessage, ImageMessage, StickerMessage, VideoMessage } from './MediaMessages';
import { CallMessage, CardMessage, ContactsMessage, ErrorMessage, InteractiveMessage, LinkMessage, LocationMessage, OrderMessage, TemplateMessage } from './StructuredMessages';
import { DetailsMessage } from './DetailsMessage';
import { ProviderErrorsNote, SystemNoticeMessage, UnsupportedMessage } from './WhatsappKinds';

export interface MessageContentProps {
  message: ChatMessage;
  /** Asks the server to fetch an error-type message's media again ('recarregar'). */
  onReload?: (message: ChatMessage) => void;
}

/**
 * The body of one message, chosen by its type (seed 001 §2 "Message renderers").
 *
 * To render a new type: add its component beside this file, add a case below, and a story in
 * MessageContent.stories.tsx (the spec renders every story). Unknown types show a visible
 * placeholder, never a crash.
 */
export function MessageContent({ message, onReload }: MessageContentProps) {
  if (!message.providerErrors?.length || message.type === 'unsupported') return <ContentOf message={message} onReload={onReload} />;
  return (
    <>
      <ContentOf message={message} onReload={onReload} />
      <ProviderErrorsNote message={message} />
    </>
  );
}

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'voice', 'sticker', 'document', 'attachment']);

/**
 * The text of an inbound file the server could not download from the provider (it kept the
 * provider's reference in `error`): what failed, with the file's name when known, then the caption.
 */
function mediaFailedText(message: ChatMessage): string {
  const t = texts.mediaFailed;
  const kind = message.error?.type ?? message.type;
  const name = message.error?.fileName;
  const what = kind === 'document' || kind === 'attachment' ? (name ? format(t.namedDocument, { name }) : t.document) : (t[kind as keyof typeof t] ?? t.document);
  return message.caption ? `${what} ${message.caption}` : what;
}

function ContentOf({ message, onReload }: MessageContentProps) {
  // A file whose download failed keeps its own type: the error renderer says so and offers 'recarregar'.
  if (message.error && MEDIA_TYPES.has(message.type)) return <ErrorMessage message={{ ...message, text: mediaFailedText(message) }} onReload={onReload && (() => onReload(message))} />;
  switch (message.type) {
    case 'text':
    case 'chat':
      return message.link ? <LinkMessage message={message} /> : <TextMessage message={message} />;
    case 'image':
      return <ImageMessage message={message} />;
    case 'audio':
    case 'voice':
      return <AudioMessage message={message} />;
    case 'video':
      return <VideoMessage message={message} />;
    case 'document':
    case 'attachment':
      return <DocumentMessage message={message} />;
    case 'contact':
    case 'contacts':
      return <ContactsMessage message={message} />;
    case 'location':
      return <LocationMessage message={message} />;
    case 'sticker':
      return <StickerMessage message={message} />;
    case 'card':
      return <CardMessage message={message} />;
    case 'link':
      return <LinkMessage message={message} />;
    case 'template':
      return <TemplateMessage message={message} />;
    case 'interactive':
    case 'catalog_message':
      return message.interactive ? <InteractiveMessage message={message} /> : <TextMessage message={message} />;
    case 'error':
      return <ErrorMessage message={message} onReload={onReload} />;
    case 'call':
      return <CallMessage message={message} />;
    case 'order':
      return <OrderMessage message={message} />;
    case 'system':
      return <SystemNoticeMessage message={message} />;
    case 'unsupported':
      return <UnsupportedMessage message={message} />;
    case 'request':
    case 'webhook':
    case 'transfer':
      return <DetailsMessage message={message} />;
    case 'endInteraction':
    case 'toChat':
      return (
        <Typography variant="body2" sx={{
          fontStyle: "italic"
        }}>{message.text ?? (message.toChat?.roomInc ? `Chat #${message.toChat.roomInc}` : 'Fim da interação')}</Typography>
      );
    default:
      return <UnknownMessage message={message} />;
  }
}

/** Plain text with links (label cut at 80) and *bold* — never HTML. */
function TextMessage({ message }: { message: ChatMessage }) {
  return (
    <Typography variant="body2" component="div" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      <RichText text={message.text ?? ''} />
    </Typography>
  );
}

function UnknownMessage({ message }: { message: ChatMessage }) {
  return (
    <Typography
      variant="body2"
      data-unknown-type={message.type}
      sx={{
        color: "text.secondary",
        fontStyle: "italic"
      }}>Mensagem do tipo "{String(message.type)}" não suportada{message.text ? `: ${message.text}` : ''}
    </Typography>
  );
}
