/// <reference types="vitest/config" />
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, runnerImport, type UserConfig } from 'vite';
import { bootPlugin, firstViewGroups, type PlanFiles } from './src/app/boot/boot-plugin.ts';
import type * as PlanModule from './src/app/boot/plan.ts';
import { i18nPlugin } from './vite/i18n-plugin.ts';
import { leanImportsPlugin } from './vite/lean-imports-plugin.ts';
import { precompressPlugin } from './vite/precompress-plugin.ts';
import { pureSchemasPlugin } from './vite/pure-schemas-plugin.ts';
import { reactRouterPurePlugin } from './vite/react-router-pure-plugin.ts';
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

/** The boot's modules the build reads (src/app/boot/plan.ts). */
const planFiles: PlanFiles = {
  dashboards: path.join(here, 'src/app/boot/dashboards.ts'),
  widgets: path.join(here, 'src/widgets'),
};

/** How a signed-in page starts (src/app/boot/start.ts). */
const bootStart = path.join(here, 'src/app/boot/start.ts');

export default defineConfig(async ({ command, mode }): Promise<UserConfig> => {
  // The first views as the route table and the widget descriptors say (loaded by Vite's module runner: the
  // descriptors' dynamic imports of components are never run here).
  const { module: boot } = await runnerImport<typeof PlanModule>(path.join(here, 'src/app/boot/plan.ts'), {
    root: here,
    configFile: false,
    logLevel: 'error',
  });
  const plan = boot.bootPlan();
  const env = loadEnv(mode, here, '');
  const target = env.FORECOURT_API_TARGET || 'http://localhost:8080';
  return {
    root: here,
    plugins: [
      zodJitlessPlugin(path.join(here, 'src/zod-jitless.ts')),
      reactRouterPurePlugin(),
      pureSchemasPlugin(),
      leanImportsPlugin(path.join(here, 'src/lib/use-merge-refs.ts')),
      react(),
      i18nPlugin({ localesDir: path.join(here, 'src/i18n/locales') }),
      // Before precompress: it writes theme-init.js into the output (the first views' chunks below and their imports).
      bootPlugin(plan, planFiles),
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
              // How a signed-in page starts (src/app/boot/start.ts), which main.tsx imports only with a session: not on
              // the login route. theme-init.js asks for it with the first view's chunks, in parallel with the entry.
              { name: 'signed-in-start', test: (id: string) => id.split('?')[0] === bootStart },
              // The first views (the page frame, the dashboards' pages and the first widgets of each board, with every
              // module they import), from the route table and the widget descriptors: src/app/boot/boot-plugin.ts.
              ...firstViewGroups(plan, planFiles),
              // Leaflet (the source modules src/lib/leaflet.ts takes) as one chunk, not split among the maps and the admin map.
              {
                name: 'leaflet',
                test: /[\\/]node_modules[\\/]leaflet[\\/]|[\\/]src[\\/]lib[\\/]leaflet\.ts$/,
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
