import type { MailContent } from '@atendimento/schemas';
import type { ChatMessage, Room } from '../../model/chat';
import { buildMessage, buildRoom } from '../../fixtures/builders';
import { iso } from '../../fixtures/chatFixtures';

/** A mail thread for stories and specs: the customer's mails and the agent's replies. */
export const mailRoom: Room = buildRoom({
  id: 'room-mail', roomInc: 2001, createdAt: iso(120), channel: 'mail', channelId: 'mail-vendas', origin: 'mail', chatId: 'cliente@cliente.example',
  subject: 'Pedido 123 atrasado', mailThreadId: 'm1@cliente.example', mailTo: ['cliente@cliente.example'], mailCC: ['gerente@cliente.example'],
  author: { id: 'c-1', displayName: 'Cliente Silva', photoUrl: null, email: 'cliente@cliente.example', chatId: 'cliente@cliente.example', phone: null, type: 'client' },
  agents: [{ id: 'u-ana', displayName: 'Ana Agente' }], inAttend: true,
});

const customer = { id: 'c-1', displayName: 'Cliente Silva', type: 'client' as const };
const box = { name: 'Acme Vendas', address: 'vendas@acme.example' };
const client = { name: 'Cliente Silva', address: 'cliente@cliente.example' };

function mail(i: number, over: Partial<MailContent> & { fromAgent?: boolean; text?: string; html?: string | null; status?: ChatMessage['status']; attachments?: ChatMessage['attachments'] }): ChatMessage {
  const fromAgent = over.fromAgent ?? i % 2 === 1;
  const { text, status, attachments, fromAgent: _f, ...mailOver } = over;
  void _f;
  return buildMessage({
    id: `mail-${i}`, roomId: mailRoom.id, createdAt: iso(100 - i * 10), channel: 'mail', channelId: 'mail-vendas',
    author: fromAgent ? { id: 'u-ana', displayName: 'Ana Agente', type: 'agent' } : customer,
    text: text ?? `Mensagem ${i + 1}`, status: status ?? { sent: true },
    ...(attachments && { attachments }),
    mail: {
      messageId: `m${i + 1}@x`, inReplyTo: i ? `m${i}@x` : null, references: [], subject: i ? 'Re: Pedido 123 atrasado' : 'Pedido 123 atrasado',
      from: fromAgent ? box : client, to: [fromAgent ? client : box], cc: [], html: over.html === undefined ? `<p>Mensagem <strong>${i + 1}</strong></p>` : over.html,
      remoteImages: false, date: iso(100 - i * 10), auto: null, ...mailOver,
    },
  });
}

/** Five mails: more than 3, so the list collapses to the first two plus the last ('Expandir +2'). */
export const mailThread: ChatMessage[] = [
  mail(0, { text: 'Meu pedido não chegou.', html: '<p>Meu pedido <em>não</em> chegou.</p>' }),
  mail(1, { html: '<p>Olá! <strong>Vamos verificar.</strong></p>' }),
  mail(2, { html: null, text: 'Obrigado, aguardo.', attachments: [{ url: '/api/files/acme/AAAAAAAAAAAAAAAAAAAAAAAA.pdf', mimeType: 'application/pdf', filename: 'nota.pdf' }] }),
  mail(3, { status: { failed: true, errors: [{ title: 'connect ECONNREFUSED', titleptBR: 'Falha ao enviar o e-mail: connect ECONNREFUSED' }] } }),
  mail(4, { html: '<p>Veja a foto</p>', remoteImages: true, remoteHtml: '<p>Veja a foto</p><img src="https://imagens.example/foto.png">' }),
];

/** A thread of two mails: nothing collapses. */
export const shortThread = mailThread.slice(0, 2);

/** An auto-reply ('Resposta automática'). */
export const autoReplyMail = mail(0, { auto: 'auto-reply', subject: 'Ausente', text: 'Estou de férias.', html: null });
