import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CodeSplittingGroup } from 'rolldown';
import { minifySync, type Plugin, type ResolvedConfig, type Rollup } from 'vite';
import { translationsUrl } from '../../i18n/translations-url.ts';
import type { BootPlan } from './plan.ts';

/**
 * The build side of the boot. theme-init.js (this folder) runs in the document's head, before the entry chunk has
 * even arrived; with a session stored it asks for the files of the first view the address names at once
 * (modulepreload, and a style preload for their CSS), in parallel with the entry, instead of after the entry has
 * downloaded and run (one round trip and the entry's evaluation later on a phone). The build writes its list of
 * views: every dashboard route of the route table with the files of its board's first view, then the page frame's
 * under '*'. Without a session (the login route) it asks for nothing. In dev the list stays empty.
 */
export const VIEWS_MARKER = 'const views = [];';
export const TRANSLATIONS_MARKER = 'const translations = {};';

/** A module id as the bundler writes it, for comparison with a path. */
const norm = (id: string) => id.split('?')[0].replaceAll('\\', '/');

/** Where the plan's modules are, under the app's `src` folder. */
export interface PlanFiles {
  /** app/boot/dashboards.ts: it imports the page frame and the dashboards' pages. */
  dashboards: string;
  /** src/widgets: the plan names descriptor modules relative to it. */
  widgets: string;
}

/**
 * The code-splitting groups of the first views: the page frame, the dashboards' pages and the agent board's first
 * widgets (what dashboards.ts and those widgets' descriptor modules import) are the `signed-in` chunk, with every
 * module they import: one request instead of ~40 small chunks, which over HTTP/1.1 (six connections) queued behind
 * one another on a phone. Another board's first widgets keep their own chunks, which theme-init.js asks for with
 * that board's first view (a chunk grouping them took in what they share with every other page: Mantine's popovers,
 * the tooltips, and the agent dashboard loaded it too).
 */
export function firstViewGroups(plan: BootPlan, files: PlanFiles): CodeSplittingGroup[] {
  const descriptor = (file: string) => norm(path.join(files.widgets, file));
  const importers = new Set([norm(files.dashboards), ...plan.firstView.agent.map(descriptor)]);
  return [
    {
      name: (id, ctx) =>
        ctx.getModuleInfo(id)?.dynamicImporters.some((i) => importers.has(norm(i))) ? 'signed-in' : null,
    },
  ];
}

/**
 * The files the chunks holding `modules` need: those chunks, the chunks they import (not the entry, which is
 * loading already) and their CSS, as URLs under `base`.
 */
export function filesOf(bundle: Rollup.OutputBundle, modules: ReadonlySet<string>, base = '/'): string[] {
  const chunks = Object.values(bundle).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
  const js: string[] = [];
  const css = new Set<string>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (chunk.isEntry || js.includes(chunk.fileName)) return;
    js.push(chunk.fileName);
    for (const file of chunk.viteMetadata?.importedCss ?? []) css.add(file);
    for (const name of chunk.imports) {
      const next = bundle[name];
      if (next?.type === 'chunk') visit(next);
    }
  };
  for (const chunk of chunks) if (chunk.moduleIds.some((id) => modules.has(norm(id)))) visit(chunk);
  return [...js, ...css].map((file) => `${base}${file}`);
}

/**
 * theme-init.js with its list of views and its translations' addresses by language filled in; an error when a
 * marker is missing (the two would have drifted).
 */
export function fillThemeInit(
  source: string,
  views: [route: string, files: string[]][],
  translations: Record<string, string> = {},
): string {
  for (const marker of [VIEWS_MARKER, TRANSLATIONS_MARKER]) {
    if (!source.includes(marker)) {
      throw new Error(`theme-init.js lacks "${marker}" (app/boot/boot-plugin.ts fills it)`);
    }
  }
  return source
    .replace(VIEWS_MARKER, `const views = ${JSON.stringify(views)};`)
    .replace(TRANSLATIONS_MARKER, `const translations = ${JSON.stringify(translations)};`);
}

/**
 * theme-init.js as the build serves it: the lists filled, minified (its comments and names are most of its bytes,
 * and it counts in the login route's JavaScript).
 */
export function buildThemeInit(
  source: string,
  views: [string, string[]][],
  translations: Record<string, string> = {},
): string {
  const { code, errors } = minifySync('theme-init.js', fillThemeInit(source, views, translations));
  if (errors.length > 0) throw new Error(`theme-init.js: ${errors.map((e) => e.message).join('; ')}`);
  return code;
}

/**
 * index.html with its entry chunk's `<script type="module">` marked `fetchpriority="low"`. A module script
 * never holds the first paint back (it runs once the document is parsed), but Chromium asks for it at high
 * priority, as for a blocking script: on a connection that orders its answers (HTTP/2 and 3) its 115 KB would
 * come before the stylesheet the splash waits for. Low, the stylesheet and theme-init.js go first and the
 * entry still leaves at once. Lighthouse's simulation likewise counts a high-priority script that arrived
 * before the first paint as blocking that paint (first paint 2.0 s there against 1.4 s at low, docs/decisions/0006).
 * An error when the document has no module script (the two would have drifted).
 */
export function lowPriorityEntry(html: string): string {
  if (/<script type="module"[^>]* fetchpriority="low"/.test(html)) return html;
  const tag = /<script type="module"([^>]*) src="([^"]+)"><\/script>/;
  if (!tag.test(html)) throw new Error('index.html has no <script type="module" src> for the entry chunk');
  return html.replace(tag, '<script type="module"$1 fetchpriority="low" src="$2"></script>');
}

export const THEME_INIT = path.join(path.dirname(new URL(import.meta.url).pathname), 'theme-init.js');

/** Serves theme-init.js in dev (list empty) and writes it into the build, its views filled, minified. */
export function bootPlugin(plan: BootPlan, files: PlanFiles): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'forecourt-boot',
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      server.middlewares.use('/theme-init.js', (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript');
        res.end(readFileSync(THEME_INIT, 'utf8'));
      });
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html) => (config.command === 'build' ? lowPriorityEntry(html) : html),
    },
    generateBundle(_options, bundle) {
      if (config.command !== 'build') return;
      const imported = (file: string) =>
        new Set((this.getModuleInfo(file)?.dynamicallyImportedIds ?? []).map(norm));
      const frame = imported(files.dashboards);
      if (frame.size === 0) this.error(`the build holds no module imported by ${files.dashboards}`);
      const board = (name: keyof BootPlan['firstView']) =>
        new Set([
          ...frame,
          ...plan.firstView[name].flatMap((f) => [...imported(path.join(files.widgets, f))]),
        ]);
      const views: [string, string[]][] = [
        ...plan.routes.map(
          ({ path: route, board: b }) =>
            [route, filesOf(bundle, board(b), config.base)] as [string, string[]],
        ),
        ['*', filesOf(bundle, frame, config.base)],
      ];
      // The catalogues' languages and version, as vite/i18n-plugin.ts defines them for i18n.ts.
      const defined = (name: string) => JSON.parse(String(config.define?.[name] ?? 'null'));
      const version: unknown = defined('__I18N_VERSION__');
      const languages: unknown = defined('__I18N_LANGUAGES__');
      if (typeof version !== 'string' || !Array.isArray(languages)) {
        this.error('the build defines no __I18N_VERSION__ and __I18N_LANGUAGES__ (vite/i18n-plugin.ts)');
      }
      const translations = Object.fromEntries(
        languages.map((lang: string) => [lang, translationsUrl(config.base, lang, version)]),
      );
      this.emitFile({
        type: 'asset',
        fileName: 'theme-init.js',
        source: buildThemeInit(readFileSync(THEME_INIT, 'utf8'), views, translations),
      });
      config.logger.info(
        `theme-init.js preloads the first views: ${views.map(([r, f]) => `${r} ${f.length} files`).join(', ')}`,
      );
    },
  };
}
