#!/usr/bin/env node
// Compiles a Node workspace (apps/server, apps/simulator) to plain JavaScript for `npm start`: one ESM file per
// entry in <workspace>/dist, no TypeScript loader at run time. The workspace code and packages/contract are
// bundled in; every other package stays external and is loaded from node_modules (native addons, WebAssembly).
// Usage (from the workspace folder): node ../../scripts/bundle.mjs src/server.ts src/db/prepare.ts [--copy from:to]
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const args = process.argv.slice(2);
const entries = [];
const copies = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--copy') copies.push(args[++i]);
  else entries.push(args[i]);
}
if (entries.length === 0) {
  console.error('usage: node scripts/bundle.mjs <entry.ts ...> [--copy from:to]');
  process.exit(2);
}

const started = Date.now();
const outdir = path.resolve('dist');
rmSync(outdir, { recursive: true, force: true });

/** Bare imports outside the workspace's own packages (@forecourt/*) are left to Node's resolution. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) =>
      a.path.startsWith('@forecourt/') || a.kind === 'entry-point'
        ? undefined
        : { path: a.path, external: true },
    );
  },
};

await build({
  entryPoints: Object.fromEntries(entries.map((e) => [path.basename(e).replace(/\.ts$/, ''), e])),
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [externalPackages],
  logLevel: 'warning',
});
for (const spec of copies) {
  const [from, to] = spec.split(':');
  cpSync(from, path.join(outdir, to), { recursive: true });
}
const name = JSON.parse(readFileSync('package.json', 'utf8')).name;
console.log(
  `${name}: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} compiled to dist/ in ${Date.now() - started} ms`,
);
