import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Translations are kept as fragments, one file per area and language
 * (`src/i18n/locales/{lang}/{area}.json`), so several people can add strings at once.
 * This plugin merges them into the one file per language the app fetches:
 * `/assets/i18n/{lang}.json` — served by a middleware in dev, emitted as a file by the build.
 */
export interface I18nPluginOptions {
  /** Folder holding one sub-folder per language. */
  localesDir: string;
  /** URL prefix the merged files are served under. @default '/assets/i18n/' */
  publicPath?: string;
}

export type Catalogue = Record<string, string>;

export function readLanguages(localesDir: string): string[] {
  if (!existsSync(localesDir)) return [];
  return readdirSync(localesDir)
    .filter((name) => statSync(path.join(localesDir, name)).isDirectory())
    .sort();
}

/** Merge every fragment of one language; a key given two different texts is an error (two areas fighting over it). */
export function mergeLanguage(localesDir: string, lang: string): Catalogue {
  const dir = path.join(localesDir, lang);
  const merged: Catalogue = {};
  const owner: Record<string, string> = {};
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new Error(`i18n: ${lang}/${file} is not valid JSON: ${(error as Error).message}`);
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      throw new Error(`i18n: ${lang}/${file} must be a flat object of strings`);
    }
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      if (typeof value !== 'string') throw new Error(`i18n: ${lang}/${file}: "${key}" must be a string`);
      if (key in merged && merged[key] !== value) {
        throw new Error(
          `i18n: "${key}" has two different texts, in ${lang}/${owner[key]} and ${lang}/${file}`,
        );
      }
      merged[key] = value;
      owner[key] = file;
    }
  }
  return merged;
}

export function mergeAll(localesDir: string): Record<string, Catalogue> {
  const out: Record<string, Catalogue> = {};
  for (const lang of readLanguages(localesDir)) out[lang] = mergeLanguage(localesDir, lang);
  return out;
}

function contentHash(all: Record<string, Catalogue>): string {
  return createHash('sha256').update(JSON.stringify(all)).digest('hex').slice(0, 10);
}

export function i18nPlugin(options: I18nPluginOptions): Plugin {
  const publicPath = options.publicPath ?? '/assets/i18n/';
  const localesDir = path.resolve(options.localesDir);
  return {
    name: 'forecourt-i18n',
    config() {
      const all = mergeAll(localesDir);
      return {
        define: {
          __I18N_VERSION__: JSON.stringify(contentHash(all)),
          __I18N_LANGUAGES__: JSON.stringify(Object.keys(all)),
        },
      };
    },
    configureServer(server) {
      server.watcher.add(localesDir);
      server.watcher.on('change', (file) => {
        if (file.startsWith(localesDir)) server.ws.send({ type: 'full-reload' });
      });
      server.middlewares.use((req, res, next) => {
        const url = (req.url ?? '').split('?')[0];
        if (!url.startsWith(publicPath) || !url.endsWith('.json')) return next();
        const lang = url.slice(publicPath.length, -'.json'.length);
        if (!/^[a-z]{2}(-[A-Za-z]{2,4})?$/.test(lang) || !existsSync(path.join(localesDir, lang))) {
          res.statusCode = 404;
          res.end('{}');
          return;
        }
        try {
          const body = JSON.stringify(mergeLanguage(localesDir, lang));
          res.setHeader('Content-Type', 'application/json; charset=utf-8');
          res.setHeader('Cache-Control', 'no-store');
          res.end(body);
        } catch (error) {
          next(error);
        }
      });
    },
    generateBundle() {
      const all = mergeAll(localesDir);
      for (const [lang, catalogue] of Object.entries(all)) {
        this.emitFile({
          type: 'asset',
          fileName: `${publicPath.replace(/^\//, '')}${lang}.json`,
          source: `${JSON.stringify(catalogue, null, 2)}\n`,
        });
      }
    },
  };
}
