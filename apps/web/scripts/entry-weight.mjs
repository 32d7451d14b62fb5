// Gzip weight of what index.html loads up front (entry script, modulepreloads, stylesheets).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? 'dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let js = 0;
let css = 0;
for (const ref of refs) {
  const size = gzipSync(readFileSync(path.join(dist, ref))).length;
  if (ref.endsWith('.js')) js += size;
  else css += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${ref}`);
}
console.log(`JS ${(js / 1024).toFixed(1)} KB gzip, CSS ${(css / 1024).toFixed(1)} KB gzip`);
