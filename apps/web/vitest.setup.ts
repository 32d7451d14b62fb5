import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { authFlashStore } from './src/lib/auth/auth-service.ts';
import { clearSession } from './src/lib/auth/session.ts';

// jsdom lacks these browser APIs that Mantine relies on.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    }),
  });
}
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
window.HTMLElement.prototype.scrollTo ??= () => {};

// findBy*/waitFor wait for an outcome, they do not time it: on a shared 2-core CI machine a lazy
// route's first import can take seconds, so the default 1 s would fail correct code.
configure({ asyncUtilTimeout: 10_000 });

(globalThis as Record<string, unknown>).__I18N_VERSION__ = 'test';
(globalThis as Record<string, unknown>).__I18N_LANGUAGES__ = ['en', 'fr', 'ar'];

afterEach(() => {
  cleanup();
  clearSession();
  authFlashStore.set(null);
  localStorage.clear();
  vi.useRealTimers();
});
