import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/**
 * Writes `file.br` (Brotli, quality 11) and `file.gz` (gzip, level 9) beside every built asset of 1 KB or more
 * that compresses, once at build time. The server sends them as they are (@fastify/static `preCompressed`)
 * instead of compressing each request at a low quality: fewer bytes over a phone's network, no CPU per request.
 */
export const PRECOMPRESS_EXTENSIONS = ['.js', '.css', '.json', '.svg', '.html'];

export function precompressFile(file: string): { br: number; gz: number } | null {
  const body = readFileSync(file);
  if (body.length < 1024) return null;
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gz = gzipSync(body, { level: 9 });
  // Nothing gained (already compressed data): the server compresses or sends the plain file.
  if (gz.length >= body.length) return null;
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gz);
  return { br: br.length, gz: gz.length };
}

/** Every file under `dir` (recursively) with one of the extensions. */
export function filesToCompress(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesToCompress(full));
    else if (PRECOMPRESS_EXTENSIONS.includes(path.extname(name))) out.push(full);
  }
  return out;
}

export function precompressPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'forecourt-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      let files = 0;
      for (const file of filesToCompress(outDir)) if (precompressFile(file)) files++;
      config.logger.info(`precompressed ${files} files (.br, .gz)`);
    },
  };
}
