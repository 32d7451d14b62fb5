import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * zod compiles object parsers with `new Function` when it may, and merely probing for that (at the first
 * `z.object()`) is a script-src violation under the console's Content-Security-Policy (no 'unsafe-eval',
 * docs/deploying.md). zod travels with the signed-in routes, not with the entry, so no entry module can switch
 * the probe off before a schema is built: every `import … from 'zod'` of the app and the contract resolves to
 * `wrapper` instead, which imports zod, sets `jitless` and re-exports it.
 */
export function zodJitlessPlugin(wrapper: string): Plugin {
  const file = path.resolve(wrapper);
  return {
    name: 'forecourt-zod-jitless',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'zod' || !importer) return null;
      if (path.resolve(importer.split('?')[0]) === file) return null;
      return file;
    },
  };
}
