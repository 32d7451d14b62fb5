import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Rollup } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_KEY, USER_KEY } from '../../lib/auth/session.ts';
import { fakeJwt } from '../../testing/fetch-mock.ts';
import {
  buildThemeInit,
  filesOf,
  fillThemeInit,
  lowPriorityEntry,
  TRANSLATIONS_MARKER,
  VIEWS_MARKER,
} from './boot-plugin.ts';
import { bootPlan } from './plan.ts';

const themeInit = readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), 'theme-init.js'),
  'utf8',
);

function chunk(
  fileName: string,
  moduleIds: string[],
  imports: string[],
  css: string[] = [],
  isEntry = false,
) {
  return {
    type: 'chunk',
    fileName,
    moduleIds,
    imports,
    isEntry,
    viteMetadata: { importedCss: new Set(css), importedAssets: new Set() },
  } as unknown as Rollup.OutputChunk;
}

const bundle = {
  'assets/index-a.js': chunk('assets/index-a.js', ['/w/src/main.tsx'], [], ['assets/index-a.css'], true),
  'assets/signed-in-b.js': chunk(
    'assets/signed-in-b.js',
    ['/w/src/app/frame/pages-frame.tsx', '/w/src/lib/auth/schemas.ts'],
    ['assets/index-a.js', 'assets/zod-c.js', 'assets/api-d.js'],
    ['assets/signed-in-b.css'],
  ),
  'assets/zod-c.js': chunk('assets/zod-c.js', ['/w/node_modules/zod/index.js'], ['assets/api-d.js']),
  'assets/api-d.js': chunk('assets/api-d.js', ['/w/src/lib/api-client.ts'], ['assets/index-a.js']),
  'assets/log-e.js': chunk('assets/log-e.js', ['/w/src/log.tsx'], ['assets/zod-c.js']),
} as unknown as Rollup.OutputBundle;

describe('the boot plugin', () => {
  afterEach(() => {
    for (const link of document.head.querySelectorAll('link')) link.remove();
  });

  it('lists the chunks holding the modules, the chunks they import (not the entry) and their CSS, once each', () => {
    expect(
      filesOf(bundle, new Set(['/w/src/app/frame/pages-frame.tsx', '/w/src/lib/api-client.ts'])),
    ).toEqual(['/assets/signed-in-b.js', '/assets/zod-c.js', '/assets/api-d.js', '/assets/signed-in-b.css']);
    expect(filesOf(bundle, new Set(['/w/src/nowhere.tsx']))).toEqual([]);
  });

  it('fills the list theme-init.js carries, and refuses a theme-init.js without it', () => {
    expect(themeInit).toContain(VIEWS_MARKER);
    expect(themeInit).toContain(`'${TOKEN_KEY}'`);
    expect(themeInit).toContain(`'${USER_KEY}'`);
    const filled = fillThemeInit(themeInit, [['*', ['/assets/a.js']]]);
    expect(filled).toContain('const views = [["*",["/assets/a.js"]]];');
    expect(fillThemeInit(themeInit, [], { en: '/e.json' })).toContain(
      'const translations = {"en":"/e.json"};',
    );
    expect(() => fillThemeInit('// nothing', [])).toThrow(VIEWS_MARKER);
    expect(() => fillThemeInit(VIEWS_MARKER, [])).toThrow(TRANSLATIONS_MARKER);
  });

  it("plans every dashboard route of the route table, and the agent's first view from the descriptors", () => {
    const plan = bootPlan();
    expect(plan.routes.map((r) => r.board)).toEqual(['agent', 'agent', 'company', 'site']);
    expect(plan.firstView.agent).toEqual(
      expect.arrayContaining(['./maps/widget.ts', './sites-online/widget.ts']),
    );
    expect(plan.firstView.site).toContain('./maps/widget.ts');
  });

  // The file as the build serves it (filled and minified): the agent board's files, the site board's, the frame's.
  const VIEWS: [string, string[]][] = [
    ['agent/:agentId/dashboard', ['/assets/a.js', '/assets/a.css']],
    ['company/:companyId/site/:siteId/dashboard', ['/assets/a.js', '/assets/s.js']],
    ['*', ['/assets/a.js']],
  ];
  const run = () => new Function(buildThemeInit(themeInit, VIEWS))();
  const links = () =>
    [...document.head.querySelectorAll('link')].map((l) => [
      l.rel,
      l.getAttribute('as'),
      l.crossOrigin,
      l.href,
    ]);

  it('with a session stored, asks for the files at once: modulepreload for scripts, a style preload for CSS', () => {
    localStorage.setItem(TOKEN_KEY, fakeJwt({ exp: Math.floor(Date.now() / 1000) + 600 }));
    localStorage.setItem(USER_KEY, JSON.stringify({ username: 'agent' }));
    window.location.hash = '#/agent/7/dashboard';
    run();
    expect(links()).toEqual([
      ['modulepreload', 'script', '', `${location.origin}/assets/a.js`],
      ['preload', 'style', '', `${location.origin}/assets/a.css`],
    ]);
  });

  it("with a session stored, asks for the stored language's translations and the fallback's, as i18next reads them", () => {
    localStorage.setItem(TOKEN_KEY, fakeJwt({ exp: Math.floor(Date.now() / 1000) + 600 }));
    localStorage.setItem(USER_KEY, JSON.stringify({ username: 'agent' }));
    window.location.hash = '#/agent/7/dashboard';
    const translations = { en: '/assets/i18n/en.json?v=1', fr: '/assets/i18n/fr.json?v=1' };
    const build = () => new Function(buildThemeInit(themeInit, VIEWS, translations))();
    const asked = () => links().filter((l) => l[1] === 'fetch');
    build();
    expect(asked()).toEqual([['preload', 'fetch', '', `${location.origin}/assets/i18n/en.json?v=1`]]);
    for (const link of document.head.querySelectorAll('link')) link.remove();
    localStorage.setItem('fc-language', 'fr');
    build();
    expect(asked().map((l) => l[3]?.replace(location.origin, ''))).toEqual([
      '/assets/i18n/fr.json?v=1',
      '/assets/i18n/en.json?v=1',
    ]);
    document.documentElement.removeAttribute('dir');
    document.documentElement.setAttribute('lang', 'en');
    // Signed out, none.
    for (const link of document.head.querySelectorAll('link')) link.remove();
    localStorage.removeItem(TOKEN_KEY);
    build();
    expect(links()).toEqual([]);
  });

  it('asks for the first view of the dashboard the address names, else for the frame', () => {
    localStorage.setItem(TOKEN_KEY, fakeJwt({ exp: Math.floor(Date.now() / 1000) + 600 }));
    localStorage.setItem(USER_KEY, JSON.stringify({ username: 'agent' }));
    const hrefs = (hash: string) => {
      for (const link of document.head.querySelectorAll('link')) link.remove();
      window.location.hash = hash;
      run();
      return links().map((l) => l[3]?.replace(location.origin, ''));
    };
    expect(hrefs('#/company/3/site/12/dashboard?kiosk=1')).toEqual(['/assets/a.js', '/assets/s.js']);
    expect(hrefs('#/site/12/pump/status/log')).toEqual(['/assets/a.js']);
    expect(hrefs('#/agent/dashboard/extra')).toEqual(['/assets/a.js']);
    window.location.hash = '';
  });

  it('still applies the stored colour scheme and language once built', () => {
    localStorage.setItem('fc-color-scheme', 'dark');
    localStorage.setItem('fc-language', 'ar');
    run();
    expect(document.documentElement.dataset.mantineColorScheme).toBe('dark');
    expect(document.documentElement.dir).toBe('rtl');
    document.documentElement.removeAttribute('dir');
    document.documentElement.removeAttribute('lang');
  });

  it('asks for nothing signed out, without a stored user, or with an expired token', () => {
    run();
    localStorage.setItem(TOKEN_KEY, fakeJwt({ exp: Math.floor(Date.now() / 1000) + 600 }));
    run();
    localStorage.setItem(USER_KEY, JSON.stringify({ username: 'agent' }));
    localStorage.setItem(TOKEN_KEY, fakeJwt({ exp: Math.floor(Date.now() / 1000) - 5 }));
    run();
    expect(links()).toEqual([]);
  });

  it("marks the entry's module script low priority, once, and refuses a document without one", () => {
    const html =
      '<head><script src="/theme-init.js"></script>\n<script type="module" crossorigin src="/assets/index-a.js"></script></head>';
    const marked = lowPriorityEntry(html);
    expect(marked).toContain(
      '<script type="module" crossorigin fetchpriority="low" src="/assets/index-a.js"></script>',
    );
    expect(marked).toContain('<script src="/theme-init.js"></script>');
    expect(lowPriorityEntry(marked)).toBe(marked);
    expect(() => lowPriorityEntry('<head></head>')).toThrow(/entry chunk/);
  });
});
