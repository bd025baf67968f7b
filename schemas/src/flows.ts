/**
 * A flow run as the bot that ran it reports it (docs/flows.md): `POST /api/flow-runs`.
 * The bot's own run id makes the call idempotent: a repeated or later report of the same run
 * (started, then completed with its results) updates one row.
 */
export interface FlowRunInput {
  runId: string;
  roomId: string;
  flowId: string;
  completed?: boolean;
  results?: Record<string, string | number | boolean>;
}

/** Names and values of results are shown in charts and CSV cells: no control characters. */
const PRINTABLE = '^[^\\u0000-\\u001f\\u007f]+$';

export const FLOW_RUN_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['runId', 'roomId', 'flowId'],
  properties: {
    runId: { type: 'string', minLength: 1, maxLength: 100, pattern: PRINTABLE },
    roomId: { type: 'string', minLength: 1, maxLength: 64 },
    flowId: { type: 'string', minLength: 1, maxLength: 64 },
    completed: { type: 'boolean' },
    results: {
      type: 'object',
      maxProperties: 30,
      propertyNames: { minLength: 1, maxLength: 64, pattern: PRINTABLE },
      additionalProperties: {
        anyOf: [{ type: 'string', minLength: 1, maxLength: 100, pattern: PRINTABLE }, { type: 'number' }, { type: 'boolean' }],
      },
    },
  },
} as const;

/** Results as stored and counted: trimmed strings (numbers and booleans as their text). */
export function flowResultsOf(results: FlowRunInput['results']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(results ?? {})) {
    const key = name.trim();
    const text = String(value).trim();
    if (key && text) out[key] = text.slice(0, 100);
  }
  return out;
}
