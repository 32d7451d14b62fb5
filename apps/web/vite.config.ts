/// <reference types="vitest/config" />
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { i18nPlugin } from './vite/i18n-plugin.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** API paths the dev server forwards to the Forecourt server. `/auth/` is API only: the SPA uses hash routes. */
const apiPaths = ['/api', '/api-token-auth', '/api-token-verify', '/auth/'];

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, here, '');
  const target = env.FORECOURT_API_TARGET || 'http://localhost:8080';
  return {
    root: here,
    plugins: [react(), i18nPlugin({ localesDir: path.join(here, 'src/i18n/locales') })],
    server: {
      port: 5173,
      proxy: Object.fromEntries(apiPaths.map((p) => [p, { target, changeOrigin: true }])),
    },
    preview: { proxy: Object.fromEntries(apiPaths.map((p) => [p, { target, changeOrigin: true }])) },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      chunkSizeWarningLimit: 700,
      rolldownOptions: {
        output: {
          codeSplitting: {
            // The libraries every route needs travel as one chunk: one request and one gzip window
            // instead of a dozen small shared chunks, which keeps the login route within its budget.
            groups: [
              {
                name: 'core',
                test: /node_modules[\\/](react|react-dom|scheduler|react-router|zod|i18next|react-i18next|i18next-http-backend|use-sync-external-store)[\\/]/,
              },
            ],
          },
        },
      },
    },
    test: {
      environment: 'jsdom',
      globals: false,
      setupFiles: ['./vitest.setup.ts'],
      include: ['src/**/*.test.{ts,tsx}', 'vite/**/*.test.ts'],
      css: false,
      testTimeout: 15_000,
      restoreMocks: true,
    },
  };
});
