import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { filesToCompress, precompressFile } from './precompress-plugin.ts';

describe('precompress plugin', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes .br and .gz beside each asset of 1 KB or more, which decompress to the same bytes', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-precompress-'));
    mkdirSync(path.join(dir, 'assets', 'i18n'), { recursive: true });
    const script = `console.log(${JSON.stringify('forecourt '.repeat(500))});\n`;
    writeFileSync(path.join(dir, 'assets', 'app.js'), script);
    writeFileSync(
      path.join(dir, 'assets', 'i18n', 'en.json'),
      JSON.stringify({ LOGIN: 'Login '.repeat(300) }),
    );
    writeFileSync(path.join(dir, 'assets', 'tiny.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'assets', 'photo.png'), Buffer.alloc(4096, 7));

    const files = filesToCompress(dir)
      .map((f) => path.relative(dir, f))
      .sort();
    expect(files).toEqual(['assets/app.js', 'assets/i18n/en.json', 'assets/tiny.js']);

    const sizes = precompressFile(path.join(dir, 'assets', 'app.js'));
    expect(sizes && sizes.br < sizes.gz && sizes.gz < script.length).toBe(true);
    const file = path.join(dir, 'assets', 'app.js');
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(script);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(script);

    // Too small to gain anything: left alone.
    expect(precompressFile(path.join(dir, 'assets', 'tiny.js'))).toBeNull();
    expect(() => readFileSync(path.join(dir, 'assets', 'tiny.js.br'))).toThrow();
  });
});
