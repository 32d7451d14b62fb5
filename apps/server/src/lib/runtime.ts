import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

/**
 * True when the server runs compiled (`npm start`: apps/server/dist/server.js, plain JavaScript), false when it
 * runs its TypeScript sources under the tsx loader (`npm run dev`, tests). In the bundle every module shares the
 * entry file's import.meta.url, so paths are derived from the server folder, never from a module's own place.
 */
export const runningCompiled = !here.endsWith('.ts');

/** apps/server, in both modes. */
export const serverDir = path.resolve(path.dirname(here), runningCompiled ? '..' : '../..');

/**
 * The arguments for `node` that run another entry point of the server: `dist/<name>.js` when compiled, else
 * `--import tsx src/<source>` (source relative to src/, e.g. 'db/prepare.ts').
 */
export function nodeEntry(source: string): { execArgv: string[]; file: string } {
  if (runningCompiled) {
    return {
      execArgv: [],
      file: path.join(serverDir, 'dist', path.basename(source).replace(/\.ts$/, '.js')),
    };
  }
  return { execArgv: ['--import', 'tsx'], file: path.join(serverDir, 'src', source) };
}
