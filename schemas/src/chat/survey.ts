import type { AppConfig } from '../domain';
import type { MessageInteractive } from './message';
import { messages as texts } from '../messages';

/**
 * NPS / CSAT surveys sent when an agent closes with 'Encerrar com pesquisa NPS/CSAT' (seed 001
 * §4, §7 /askresearch; 002 "NPS and CSAT"; docs/console-operations.md "Surveys").
 */
export type ResearchMethod = 'nps' | 'csat';

/** A survey waiting for the customer's answer, kept on the closed room. */
export interface PendingResearch {
  method: ResearchMethod;
  askedAt: string;
  /** After this the answer is no longer taken: a new message opens a new chat. */
  expiresAt: string;
  /** Times the question was sent (1, then 2 after one re-ask). */
  asks: number;
}

/** Unanswered surveys expire after this (documented decision: one day, as WhatsApp's service window). */
export const SURVEY_EXPIRY_MS = 24 * 3_600_000;

/** The answer's range: NPS 0–10 (1–5 with npsFive); CSAT 1–5. */
export function surveyScale(config: Pick<AppConfig, 'claims'>, method: ResearchMethod): { min: number; max: number } {
  if (method === 'csat') return { min: 1, max: 5 };
  return config.claims?.npsFive ? { min: 1, max: 5 } : { min: 0, max: 10 };
}

const fill = (text: string, scale: { min: number; max: number }) => text.replace('{min}', String(scale.min)).replace('{max}', String(scale.max));

/** The question the customer receives. */
export function surveyQuestion(config: Pick<AppConfig, 'claims'>, method: ResearchMethod): string {
  return fill(method === 'nps' ? texts.survey.npsQuestion : texts.survey.csatQuestion, surveyScale(config, method));
}

/** Rows a WhatsApp list holds (Cloud API). */
const LIST_MAX_ROWS = 10;

/**
 * The question as a WhatsApp list, for channels whose row says `interactive`: one row per
 * score, so the customer taps instead of typing; a typed number (with a comment) is still an
 * answer. null when the scale has more scores than a list holds (NPS 0–10 has 11): the text
 * question goes then.
 */
export function surveyList(config: Pick<AppConfig, 'claims'>, method: ResearchMethod): MessageInteractive | null {
  const scale = surveyScale(config, method);
  const count = scale.max - scale.min + 1;
  if (count > LIST_MAX_ROWS) return null;
  const rows = Array.from({ length: count }, (_, i) => {
    const value = scale.min + i;
    const label = method === 'csat' ? texts.survey.csatLabels[value - 1] : undefined;
    return { id: `survey:${method}:${value}`, title: String(value), ...(label && { description: label }) };
  });
  return { type: 'list', body: { text: surveyQuestion(config, method) }, action: { button: texts.survey.listButton, sections: [{ title: texts.survey.listSection, rows }] } };
}

export function surveyReask(config: Pick<AppConfig, 'claims'>, method: ResearchMethod): string {
  return fill(texts.survey.reask, surveyScale(config, method));
}

/**
 * The customer's answer: a whole number in range first, then an optional comment ("9",
 * "9 - muito bom", "nota 9: rápido"). Anything else (text only, 11, 7.5) is not an answer.
 */
export function parseSurveyAnswer(text: string | null | undefined, scale: { min: number; max: number }): { value: number; comment: string | null } | null {
  const match = /^\s*(?:nota\s*)?(\d{1,2})(?![\d.,]\d)\s*(?:[-–—:;,.!]\s*)?([\s\S]*)$/i.exec(text ?? '');
  if (!match) return null;
  const value = Number(match[1]);
  if (!Number.isInteger(value) || value < scale.min || value > scale.max) return null;
  const comment = match[2]!.trim();
  return { value, comment: comment ? comment.slice(0, 2000) : null };
}

/** Whether a closed room still waits for its survey's answer at `now`. */
export function researchPending(room: { active: boolean; research?: PendingResearch | null }, now: Date): boolean {
  return !room.active && Boolean(room.research) && Date.parse(room.research!.expiresAt) > now.getTime();
}

/**
 * Who may close with a survey (seed 001 §4 "Closing", §6): the tenant claim of the method
 * (askResearch for NPS, askResearchCsat for CSAT); disableAskResearch binds non-admins unless
 * the channel's own claim askResearch allows it.
 */
export function mayAskResearch(config: Pick<AppConfig, 'claims'>, method: ResearchMethod, input: { admin: boolean; channelAllows: boolean }): boolean {
  const enabled = method === 'nps' ? config.claims?.askResearch : config.claims?.askResearchCsat;
  if (!enabled) return false;
  return input.admin || !config.claims?.disableAskResearch || input.channelAllows;
}

/** Who reads the answers in history (seed 001 §6: admin; user claims showNPS / showCSAT). */
export function maySeeResearch(user: { claims?: Record<string, unknown> | null }, method: ResearchMethod): boolean {
  const claims = user.claims ?? {};
  return Boolean(claims.admin) || Boolean(method === 'nps' ? claims.showNPS : claims.showCSAT);
}

/**
 * The room fields holding survey answers that `user` may not read (maySeeResearch): the server
 * strips them from every room record it sends that user, over REST and the realtime hub.
 */
export function hiddenResearchFields(user: { claims?: Record<string, unknown> | null } | null): ('nps' | 'csat')[] {
  if (!user) return ['nps', 'csat'];
  const out: ('nps' | 'csat')[] = [];
  if (!maySeeResearch(user, 'nps')) out.push('nps');
  if (!maySeeResearch(user, 'csat')) out.push('csat');
  return out;
}
