/**
 * Console-only constants (seed 001 §9). Limits the server also applies (message length, search
 * minimum, upload sizes, page and tab limits) come from @atendimento/schemas.
 */
export const LIMITS = {
  truncateAfterMs: 3000,
  counterAfter: 5,
  searchDebounceMs: 1000,
  failureAfterMs: 60_000,
  relativeTimeRefreshMs: 60_000,
  linkDisplay: 80,
  fileNameDisplay: 15,
  emojiPerRow: 12,
  fixedMessagesMaxHeight: 300,
  replyQuoteWidth: 50,
  narrowWidth: 1065,
  rightDrawerWidth: 226,
  snackbarMs: 3000,
  /** Scroll-to-reply: pages loaded, polls per page, poll interval, highlight, smooth scroll. */
  scrollToReply: { pages: 10, polls: 20, pollMs: 50, highlightMs: 1300, smoothMs: 400 },
} as const;

/** Colours by author (seed 001 §9 "Message colours by author"). */
export const AUTHOR_COLORS = {
  client: '#ffffff',
  bot: '#ffe0b2',
  ownAgent: '#ffffff',
  otherAgent: '#e1bee7',
  system: '#c8e6c9',
  annotation: '#ffcc80',
} as const;
