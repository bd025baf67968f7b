/** The part of jsdom's API the widget and demo-page tests use (the package ships no types, @types/jsdom is not installed). */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html: string, options?: { url?: string; runScripts?: 'dangerously' | 'outside-only'; pretendToBeVisual?: boolean; beforeParse?(window: Window & typeof globalThis): void });
    readonly window: Window & typeof globalThis & { eval(code: string): unknown; close(): void };
  }
}
