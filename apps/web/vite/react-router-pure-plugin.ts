import type { Plugin } from 'vite';

/** react-router's production build (vite.config.ts points `react-router` at it): one module holds the whole library. */
const PRODUCTION_FILE = /[\\/]node_modules[\\/]react-router[\\/]dist[\\/]production[\\/][^\\/]+\.mjs$/;

/** `var NavLink = React10.forwardRef(`: a top-level component or context made by one of React's pure factories. */
const FACTORY_CALL = /^(var [\w$]+ = )(React\d*\.(?:forwardRef|memo|createContext)\()/gm;

/** `NavLink.displayName = "NavLink";` on a line of its own. */
const DISPLAY_NAME = /^[ \t]*[\w$]+\.displayName = "[^"\n]*";[ \t]*$/gm;

/**
 * What the bundler may drop of react-router: its components made with `forwardRef` / `memo` and its contexts
 * carry no `@__PURE__` mark, and a `displayName` assignment follows each, so every one of them (NavLink, Form and
 * the data router's submit code, the framework's memoized routes) counts as a side effect and stayed in the
 * login route's chunk although the console renders none of them (~2 KB gzip). The calls are marked pure and the
 * `displayName` lines, which only React DevTools reads, are blanked (line numbers stay, so do source maps);
 * what the console uses is kept by its uses. Production builds only: dev and tests load react-router as it is.
 */
export function stripReactRouter(code: string): string {
  return code.replace(FACTORY_CALL, '$1/* @__PURE__ */ $2').replace(DISPLAY_NAME, '');
}

export function reactRouterPurePlugin(): Plugin {
  return {
    name: 'forecourt-react-router-pure',
    apply: 'build',
    transform(code, id) {
      if (!PRODUCTION_FILE.test(id.split('?')[0])) return null;
      return { code: stripReactRouter(code), map: null };
    },
  };
}
