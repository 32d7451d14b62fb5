import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { reactRouterPurePlugin, stripReactRouter } from './react-router-pure-plugin.ts';

const transform = (code: string, id: string) =>
  (reactRouterPurePlugin().transform as (c: string, i: string) => { code: string } | null)(code, id);

const sample = [
  'var LocationContext = React.createContext(null);',
  'LocationContext.displayName = "Location";',
  'var NavLink = React10.forwardRef(function NavLinkWithRef(props, ref) {',
  '  return null;',
  '});',
  'NavLink.displayName = "NavLink";',
  'var MemoizedDataRoutes = React3.memo(DataRoutes2);',
  'let shouldStay = React10.forwardRef(render);',
  '    FetcherForm2.displayName = "fetcher.Form";',
  'Other.displayName = computeName();',
].join('\n');

describe('stripReactRouter', () => {
  it('marks top-level forwardRef, memo and createContext calls pure and blanks the displayName lines', () => {
    expect(stripReactRouter(sample).split('\n')).toEqual([
      'var LocationContext = /* @__PURE__ */ React.createContext(null);',
      '',
      'var NavLink = /* @__PURE__ */ React10.forwardRef(function NavLinkWithRef(props, ref) {',
      '  return null;',
      '});',
      '',
      'var MemoizedDataRoutes = /* @__PURE__ */ React3.memo(DataRoutes2);',
      'let shouldStay = React10.forwardRef(render);',
      '',
      'Other.displayName = computeName();',
    ]);
  });

  it('finds its marks in the installed react-router (an upgrade that moves them fails here)', () => {
    const require = createRequire(import.meta.url);
    const dir = require.resolve('react-router/package.json').replace(/package\.json$/, 'dist/production/');
    const index = readFileSync(`${dir}index.mjs`, 'utf8');
    const chunks = [...index.matchAll(/from "\.\/(chunk-[\w-]+\.mjs)"/g)].map((m) => m[1]);
    expect(chunks.length).toBeGreaterThan(0);
    const code = chunks.map((c) => readFileSync(`${dir}${c}`, 'utf8')).join('\n');
    const out = stripReactRouter(code);
    expect(out.split('\n').length).toBe(code.split('\n').length);
    for (const name of ['Link', 'NavLink', 'Form', 'LocationContext', 'MemoizedDataRoutes'])
      expect(out).toMatch(new RegExp(`^var ${name} = /\\* @__PURE__ \\*/ React\\d*\\.`, 'm'));
    expect(out).not.toMatch(/\.displayName = "/);
  });
});

describe('reactRouterPurePlugin', () => {
  it("touches react-router's production files only", () => {
    const code = 'var NavLink = React10.forwardRef(f);\nNavLink.displayName = "NavLink";';
    expect(transform(code, '/repo/node_modules/react-router/dist/production/chunk-ABC.mjs')?.code).toBe(
      'var NavLink = /* @__PURE__ */ React10.forwardRef(f);\n',
    );
    expect(transform(code, '/repo/node_modules/react-router/dist/development/chunk-ABC.mjs')).toBeNull();
    expect(transform(code, '/repo/apps/web/src/app/router.tsx')).toBeNull();
  });
});
