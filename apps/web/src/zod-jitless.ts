import { config } from 'zod';

// zod compiles object parsers with `new Function` when it may; merely probing for that is a script-src
// violation under the console's Content-Security-Policy (no 'unsafe-eval', docs/deploying.md). The build
// resolves every other `import … from 'zod'` to this module (vite/zod-jitless-plugin.ts), so `jitless` is set
// before any schema is built, wherever zod is first loaded.
config({ jitless: true });

export * from 'zod';
