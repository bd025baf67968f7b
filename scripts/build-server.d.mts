/** Types of scripts/build-server.mjs for the TypeScript callers (tests, benchmarks). */
export declare const SERVER_BUNDLE: string;
export declare function buildServer(options?: { force?: boolean }): Promise<string>;
