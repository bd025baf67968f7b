/** The part of jsdom's API the widget test uses (the package ships no types, @types/jsdom is not installed). */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html: string, options?: { url?: string; runScripts?: 'dangerously' | 'outside-only'; pretendToBeVisual?: boolean });
    readonly window: Window & typeof globalThis & { eval(code: string): unknown; close(): void };
  }
}
