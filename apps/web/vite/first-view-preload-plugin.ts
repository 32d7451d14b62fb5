import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { minifySync, type Plugin, type ResolvedConfig, type Rollup } from 'vite';

/**
 * The list in `public/theme-init.js` that the build fills: `for (const href of [])` becomes the signed-in first
 * view's files. theme-init.js runs in the document's head, before the entry chunk has even arrived; with a
 * session stored it asks for those files at once (modulepreload, and a style preload for their CSS), in
 * parallel with the entry, instead of after the entry has downloaded and run (one round trip and the entry's
 * evaluation later on a phone; decision 0006). Without a session (the login route) it asks for nothing. In dev the
 * list stays empty: Vite serves modules one by one.
 */
export const FIRST_VIEW_MARKER = 'for (const href of [])';

/**
 * The files the chunk holding a module that `first` matches needs: the chunk itself, the chunks it imports
 * (not the entry, which is loading already) and their CSS, as URLs under `base`.
 */
export function firstViewFiles(bundle: Rollup.OutputBundle, first: RegExp, base = '/'): string[] {
  const chunks = Object.values(bundle).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
  const start = chunks.find((c) => !c.isEntry && c.moduleIds.some((id) => first.test(id)));
  if (!start) return [];
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
  visit(start);
  return [...js, ...css].map((file) => `${base}${file}`);
}

/** theme-init.js with the list filled in; an error when the marker is missing (the two would have drifted). */
export function fillThemeInit(source: string, files: string[]): string {
  if (!source.includes(FIRST_VIEW_MARKER)) {
    throw new Error(
      `theme-init.js lacks "${FIRST_VIEW_MARKER}" (vite/first-view-preload-plugin.ts fills it)`,
    );
  }
  return source.replace(FIRST_VIEW_MARKER, `for (const href of ${JSON.stringify(files)})`);
}

/**
 * theme-init.js as the build serves it: the list filled, minified (its comments and names are most of its bytes,
 * and it counts in the login route's JavaScript).
 */
export function buildThemeInit(source: string, files: string[]): string {
  const { code, errors } = minifySync('theme-init.js', fillThemeInit(source, files));
  if (errors.length > 0) throw new Error(`theme-init.js: ${errors.map((e) => e.message).join('; ')}`);
  return code;
}

/**
 * index.html with its entry chunk's `<script type="module">` marked `fetchpriority="low"`. A module script
 * never holds the first paint back (it runs once the document is parsed), but Chromium asks for it at high
 * priority, as for a blocking script: on a connection that orders its answers (HTTP/2 and 3) its 115 KB would
 * come before the stylesheet the splash waits for. Low, the stylesheet and theme-init.js go first and the
 * entry still leaves at once. Lighthouse's simulation likewise counts a high-priority script that arrived
 * before the first paint as blocking that paint (bench/README.md: first paint 2.0 s there against 1.4 s at low).
 * An error when the document has no module script (the two would have drifted).
 */
export function lowPriorityEntry(html: string): string {
  if (/<script type="module"[^>]* fetchpriority="low"/.test(html)) return html;
  const tag = /<script type="module"([^>]*) src="([^"]+)"><\/script>/;
  if (!tag.test(html)) throw new Error('index.html has no <script type="module" src> for the entry chunk');
  return html.replace(tag, '<script type="module"$1 fetchpriority="low" src="$2"></script>');
}

/** Writes theme-init.js into the build output, minified, its list the files of the chunk holding `first`. */
export function firstViewPreloadPlugin(first: RegExp): Plugin {
  let config: ResolvedConfig;
  let files: string[] = [];
  return {
    name: 'forecourt-first-view-preload',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html) => lowPriorityEntry(html),
    },
    generateBundle(_options, bundle) {
      files = firstViewFiles(bundle, first, config.base);
      if (files.length === 0) this.error(`no chunk holds a module matching ${first}`);
    },
    // After the public folder's copy is written, before the precompress plugin's closeBundle.
    writeBundle() {
      const file = path.resolve(config.root, config.build.outDir, 'theme-init.js');
      writeFileSync(file, buildThemeInit(readFileSync(file, 'utf8'), files));
      config.logger.info(`theme-init.js preloads the signed-in first view: ${files.length} files`);
    },
  };
}
