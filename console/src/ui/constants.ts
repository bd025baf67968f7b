/** Business constants of the console (seed 001 §9, seed 002 §7), named once. */
export const LIMITS = {
  messageLength: 4000,
  truncateAfterMs: 3000,
  counterAfter: 5,
  searchMin: 3,
  searchDebounceMs: 1000,
  failureAfterMs: 60_000,
  relativeTimeRefreshMs: 60_000,
  messagesPerPage: 20,
  contactsPage: 20,
  linkDisplay: 80,
  fileNameDisplay: 15,
  emojiPerRow: 12,
  fixedMessagesMaxHeight: 300,
  replyQuoteWidth: 50,
  queueChipsShown: 2,
  narrowWidth: 1065,
  rightDrawerWidth: 226,
  snackbarMs: 3000,
  uploadImageBytes: 5 * 1024 * 1024,
  uploadMediaBytes: 16 * 1024 * 1024,
  uploadAnyBytes: 100 * 1024 * 1024,
  /** Scroll-to-reply: pages loaded, polls per page, poll interval, highlight, smooth scroll. */
  scrollToReply: { pages: 10, polls: 20, pollMs: 50, highlightMs: 1300, smoothMs: 400 },
  /** Tab subscription limits (seed 002 §7). */
  tabLimits: {
    contacts: 20,
    userChats: 100,
    queuesChats: 100,
    teamChats: 10,
    userMailChat: 10,
    mailChats: 10,
    botChats: 10,
    allQueuesChats: 10,
    chatsHistories: 10,
    internalChats: 100,
    contactHistory: 5,
  },
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
