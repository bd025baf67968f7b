// oidc-provider ships no type declarations; the demo and tests use a handful of its options.
declare module 'oidc-provider';
