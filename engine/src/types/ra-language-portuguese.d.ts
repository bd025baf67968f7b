// ra-language-portuguese ships no types: it is one plain object of translations.
declare module 'ra-language-portuguese' {
  const messages: Record<string, unknown>;
  export default messages;
}
