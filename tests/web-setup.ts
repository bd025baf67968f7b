import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// Each spec starts with an empty page and empty browser storage.
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
