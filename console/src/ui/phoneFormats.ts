import { useSyncExternalStore } from 'react';

type PhoneLibrary = typeof import('libphonenumber-js');

let library: PhoneLibrary | undefined;
let loading: Promise<PhoneLibrary | undefined> | undefined;
let version = 0;
const listeners = new Set<() => void>();

/**
 * Loads libphonenumber-js (about 40 kB gzip, a third of the console's first chunk) the first
 * time a foreign number is shown: Brazilian numbers, nearly all of them here, need only the
 * mask. A failed download (offline, new deploy) is retried on the next foreign number.
 */
export function loadPhoneFormats(): Promise<PhoneLibrary | undefined> {
  loading ??= import('libphonenumber-js').then(
    (loaded) => {
      library = loaded;
      version += 1;
      for (const listener of listeners) listener();
      return loaded;
    },
    () => {
      loading = undefined;
      return undefined;
    },
  );
  return loading;
}

/** The library once loaded; undefined before (formatPhone then shows +digits and starts the download). */
export function phoneLibrary(): PhoneLibrary | undefined {
  return library;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * For a component that shows phones with formatPhone: it renders again when the foreign
 * formats arrive, so '+972501234567' becomes '+972 50 123 4567' without a reload.
 */
export function usePhoneFormats(): void {
  useSyncExternalStore(subscribe, () => version, () => version);
}
