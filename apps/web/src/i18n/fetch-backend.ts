import type { BackendModule, ReadCallback } from 'i18next';

/**
 * The i18next backend of the console: one `fetch` of `/assets/i18n/{lng}.json` per language (merged from the
 * fragments by vite/i18n-plugin.ts). It replaces i18next-http-backend, whose options the console never
 * used, to keep the login route light. As there, a failed request is retried by i18next when the failure may
 * pass (no answer, or a 5xx) and not when the server refused (4xx) or the body is not JSON.
 */
export function fetchBackend(loadPath: (lng: string) => string): BackendModule {
  return {
    type: 'backend',
    init() {},
    read(language: string, _namespace: string, callback: ReadCallback) {
      const url = loadPath(language);
      fetch(url, { credentials: 'same-origin' }).then(
        (res) => {
          if (!res.ok) {
            callback(`failed loading ${url}; status code: ${res.status}`, res.status >= 500);
            return;
          }
          res.json().then(
            (data) => callback(null, data),
            () => callback(`failed parsing ${url} to json`, false),
          );
        },
        (error: Error) => callback(`failed loading ${url}: ${error.message}`, true),
      );
    },
  };
}
