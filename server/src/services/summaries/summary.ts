import type { Message, Room } from '@atendimento/schemas';

/**
 * An extractive summary of a chat (docs/summaries.md): no external AI service, only what was
 * said, picked by rules a reader can check — who took part, the timeline (opened, first agent
 * answer, transfers and system notes, closed with its justification), the customer's first
 * message and questions, the agent's first, longest and last answers, attachments as links,
 * and the survey answers.
 */
export interface ChatSummary {
  subject: string;
  text: string;
  html: string;
}

const MAX_QUESTIONS = 3;
const MAX_AGENT_ANSWERS = 4;
const MAX_CHARS = 600;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_CHARS ? `${flat.slice(0, MAX_CHARS - 1)}…` : flat;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function when(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat('pt-BR', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso)).replace(',', '');
}

function minutesBetween(a: string, b: string): string {
  const m = Math.max(0, Math.round((Date.parse(b) - Date.parse(a)) / 60_000));
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** Links of a message's files (attachments, image, audio, video, document). */
function linksOf(m: Message): { name: string; url: string }[] {
  const out: { name: string; url: string }[] = [];
  for (const a of m.attachments ?? []) out.push({ name: a.filename, url: a.url });
  if (m.image?.imageUrl) out.push({ name: 'imagem', url: m.image.imageUrl });
  if (m.audio?.audioUrl) out.push({ name: 'áudio', url: m.audio.audioUrl });
  if (m.video?.videoUrl) out.push({ name: m.video.fileName ?? 'vídeo', url: m.video.videoUrl });
  if (m.document?.documentUrl) out.push({ name: m.document.fileName, url: m.document.documentUrl });
  return out;
}

const textOf = (m: Message) => clip(m.text ?? m.caption ?? '');

/**
 * Builds the summary of a room from its messages (any order).
 * @example buildSummary(room, messages, { timeZone: 'America/Sao_Paulo', baseUrl: 'https://acme.example' })
 */
export function buildSummary(room: Room, messageList: Message[], options: { timeZone: string; baseUrl: string; subject: string }): ChatSummary {
  const msgs = [...messageList].filter((m) => !m.internal).sort((a, b) => a.lifeControl.createdAt.localeCompare(b.lifeControl.createdAt) || a.id.localeCompare(b.id));
  const visible = msgs.filter((m) => !m.lifeControl.deletedAt);
  const contactMsgs = visible.filter((m) => m.author.type === 'client' && !m.annotation);
  const agentMsgs = visible.filter((m) => m.author.type === 'agent' && !m.annotation && textOf(m));
  const notes = visible.filter((m) => m.annotation || m.author.type === 'system');
  const contactName = room.author?.displayName || room.chatId;
  const agents = [...new Map(agentMsgs.map((m) => [m.author.id ?? m.author.displayName, m.author.displayName ?? m.author.id ?? ''])).values()];

  const sections: { title: string; lines: string[] }[] = [];
  sections.push({
    title: 'Chat',
    lines: [
      `Código: ${room.roomInc}`,
      `Contato: ${contactName}`,
      `Canal: ${room.channel}`,
      `Criado em: ${when(room.lifeControl.createdAt, options.timeZone)}`,
      room.active ? 'Encerrado em: chat ativo' : `Encerrado em: ${when(room.closedBy?.closedAt, options.timeZone)}`,
    ],
  });
  sections.push({ title: 'Participantes', lines: [`Contato: ${contactName}`, ...agents.map((a) => `Agente: ${a}`)] });

  const timeline = [`${when(room.lifeControl.createdAt, options.timeZone)} — chat aberto`];
  const firstAnswer = agentMsgs[0];
  if (firstAnswer) timeline.push(`${when(firstAnswer.lifeControl.createdAt, options.timeZone)} — primeira resposta de ${firstAnswer.author.displayName ?? 'agente'} (após ${minutesBetween(room.lifeControl.createdAt, firstAnswer.lifeControl.createdAt)})`);
  for (const n of notes.slice(0, 10)) if (textOf(n)) timeline.push(`${when(n.lifeControl.createdAt, options.timeZone)} — ${textOf(n)}`);
  if (room.closedBy) {
    const parts = [`encerrado por ${room.closedBy.displayName}`];
    if (room.closedBy.justify) parts.push(`justificativa: ${room.closedBy.justify}`);
    if (room.closedBy.obs) parts.push(`observação: ${room.closedBy.obs}`);
    timeline.push(`${when(room.closedBy.closedAt, options.timeZone)} — ${parts.join('; ')}`);
  }
  sections.push({ title: 'Linha do tempo', lines: timeline });

  // What the customer wanted: the first message and up to three questions after it.
  const asked: string[] = [];
  const opening = contactMsgs.find((m) => textOf(m));
  if (opening) asked.push(`Primeira mensagem: "${textOf(opening)}"`);
  for (const m of contactMsgs.filter((c) => c !== opening && textOf(c).includes('?')).slice(0, MAX_QUESTIONS)) asked.push(`Pergunta: "${textOf(m)}"`);
  if (asked.length) sections.push({ title: 'O que o contato pediu', lines: asked });

  // What was answered: the first, the longest and the last agent answers, in time order.
  const picked = new Set<Message>();
  if (agentMsgs[0]) picked.add(agentMsgs[0]);
  for (const m of [...agentMsgs].sort((a, b) => textOf(b).length - textOf(a).length)) {
    if (picked.size >= MAX_AGENT_ANSWERS - 1) break;
    picked.add(m);
  }
  const lastAnswer = agentMsgs[agentMsgs.length - 1];
  if (lastAnswer) picked.add(lastAnswer);
  const answers = agentMsgs.filter((m) => picked.has(m)).map((m) => `${m.author.displayName ?? 'Agente'} (${when(m.lifeControl.createdAt, options.timeZone)}): "${textOf(m)}"`);
  if (answers.length) sections.push({ title: 'Respostas principais', lines: answers });

  const files = visible.flatMap((m) => linksOf(m).map((l) => ({ ...l, url: /^https?:/.test(l.url) ? l.url : `${options.baseUrl}${l.url.startsWith('/') ? '' : '/'}${l.url}` })));
  if (files.length) sections.push({ title: 'Anexos', lines: files.map((f) => `${f.name}: ${f.url}`) });

  const outcome: string[] = [];
  outcome.push(room.active ? 'Situação: chat ativo' : `Situação: encerrado${room.closedBy?.justify ? ` (${room.closedBy.justify})` : ''}`);
  if (room.nps) outcome.push(`NPS: ${room.nps.value}${room.nps.reason ? ` — "${clip(room.nps.reason)}"` : ''}`);
  if (room.csat) outcome.push(`CSAT: ${room.csat.value}${room.csat.reason ? ` — "${clip(room.csat.reason)}"` : ''}`);
  outcome.push(`Mensagens: ${contactMsgs.length} do contato, ${agentMsgs.length} de agentes`);
  sections.push({ title: 'Resultado', lines: outcome });

  const text = sections.map((s) => `${s.title}\n${s.lines.map((l) => `- ${l}`).join('\n')}`).join('\n\n') + '\n';
  const linkify = (line: string) => escapeHtml(line).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');
  const html = `<div style="font-family:sans-serif">${sections.map((s) => `<h3>${escapeHtml(s.title)}</h3><ul>${s.lines.map((l) => `<li>${linkify(l)}</li>`).join('')}</ul>`).join('')}</div>`;
  return { subject: options.subject, text, html };
}
