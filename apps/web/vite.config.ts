/// <reference types="vitest/config" />
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { firstViewPreloadPlugin } from './vite/first-view-preload-plugin.ts';
import { i18nPlugin } from './vite/i18n-plugin.ts';
import { leanImportsPlugin } from './vite/lean-imports-plugin.ts';
import { precompressPlugin } from './vite/precompress-plugin.ts';
import { pureSchemasPlugin } from './vite/pure-schemas-plugin.ts';
import { reactRouterPurePlugin } from './vite/react-router-pure-plugin.ts';
import { syncExternalStoreShimPlugin } from './vite/sync-external-store-shim-plugin.ts';
import { zodJitlessPlugin } from './vite/zod-jitless-plugin.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** API paths the dev server forwards to the Forecourt server. `/auth/` is API only: the SPA uses hash routes. */
const apiPaths = ['/api', '/api-token-auth', '/api-token-verify', '/auth/'];

/**
 * react-router's package exports name only its development build, dev-only warnings included
 * (remix-run/react-router#14102); the production build sits next to it, and the console's bundles use that.
 */
const reactRouterProduction = fileURLToPath(import.meta.resolve('react-router/package.json')).replace(
  /package\.json$/,
  'dist/production/index.mjs',
);

/** The modules of the signed-in first view (`signed-in` chunk below); their imports come along. */
const SIGNED_IN_FIRST_VIEW = new RegExp(
  String.raw`[\\/]src[\\/](` +
    [
      String.raw`app[\\/]frame[\\/]pages-frame\.tsx`,
      String.raw`lib[\\/]auth[\\/]schemas\.ts`,
      String.raw`app[\\/]routes[\\/]pages[\\/]dashboards[\\/](agent-dashboard-page\.tsx|lazy-widgets\.ts|first-reads\.ts)`,
      String.raw`widgets[\\/]maps[\\/]components[\\/]map-widgets\.tsx`,
      String.raw`widgets[\\/](sites-online|alerts|local-time)[\\/]components[\\/][a-z-]+-widget\.tsx`,
    ].join('|') +
    ')$',
);

export default defineConfig(({ command, mode }) => {
  const env = loadEnv(mode, here, '');
  const target = env.FORECOURT_API_TARGET || 'http://localhost:8080';
  return {
    root: here,
    plugins: [
      zodJitlessPlugin(path.join(here, 'src/zod-jitless.ts')),
      reactRouterPurePlugin(),
      pureSchemasPlugin(),
      syncExternalStoreShimPlugin(),
      leanImportsPlugin(path.join(here, 'src/lib/use-merge-refs.ts')),
      react(),
      i18nPlugin({ localesDir: path.join(here, 'src/i18n/locales') }),
      // Before precompress: it rewrites theme-init.js in the output (the `signed-in` chunk below and its imports).
      firstViewPreloadPlugin(SIGNED_IN_FIRST_VIEW),
      precompressPlugin(),
    ],
    resolve: {
      alias:
        command === 'build' && mode === 'production'
          ? [{ find: /^react-router$/, replacement: reactRouterProduction }]
          : [],
    },
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
            // Everything index.html loads (React, the router, i18next, the Mantine parts of the sign-in
            // screens, the app's shell) is one chunk: one request and one gzip window instead of a core chunk
            // plus a dozen small shared ones, 4.5 KB less on the login route (docs/decisions/0006).
            groups: [
              { name: 'core', tags: ['$initial'], priority: 2 },
              // zod is not on the login route (the sign-in forms check with the contract's plain rules): it comes
              // as one chunk with the signed-in routes, its jitless switch (src/zod-jitless.ts) inside.
              { name: 'zod', test: /node_modules[\\/]zod[\\/]|[\\/]src[\\/]zod-jitless\.ts$/ },
              // What the sign-in screens fetch on demand (the API client, the form alerts) and the signed-in area
              // shares: a chunk of its own, so that those screens never pull the signed-in chunk below.
              {
                name: 'api-alerts',
                priority: 1,
                test: /[\\/]src[\\/](lib[\\/]api-client\.ts|components[\\/]form-alert-list\.tsx)$/,
              },
              // How a signed-in page starts (app/preload.ts: its modules, first reads and the bell's gate), which
              // main.tsx imports only with a session: not on the login route. The signed-in chunk imports it too, so
              // theme-init.js asks for it with that chunk, in parallel with the entry.
              { name: 'signed-in-start', test: /[\\/]src[\\/]app[\\/]preload\.ts$/ },
              // The signed-in area's first view, the agent dashboard's above the fold: the page frame, the stored
              // user's check, the dashboard page and its first widgets, with every module they import (Mantine's
              // pieces, icons, the API modules). One request instead of ~40 small chunks, which over HTTP/1.1
              // (six connections) queued behind one another on a phone (decision 0006). Widgets below the fold, the
              // menus and drawers stay lazy chunks of their own.
              { name: 'signed-in', test: SIGNED_IN_FIRST_VIEW },
              // The map widgets' Leaflet canvas and Leaflet itself: one request.
              {
                name: 'leaflet',
                test: /[\\/]src[\\/]widgets[\\/]maps[\\/]components[\\/]leaflet-maps\.tsx$/,
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
