import { config } from 'zod';

// zod compiles object parsers with `new Function` when it may; merely probing for that is a script-src
// violation under the console's Content-Security-Policy (no 'unsafe-eval', docs/deploying.md). Imported first
// by main.tsx, before any schema parses.
config({ jitless: true });
