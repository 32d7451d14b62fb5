/**
 * The app routes by hash (`/#/site/3/pump/status/log`). A plain path typed into the address bar
 * (`/site/3/pump/status/log?q=x`, answered with the app by the server) becomes that hash route,
 * query string included, before the router starts. Returns the new URL, or null when nothing changes.
 */
export function hashUrlForPlainPath(location: {
  pathname: string;
  search: string;
  hash: string;
}): string | null {
  const { pathname, search, hash } = location;
  if (pathname === '/' || pathname === '' || pathname === '/index.html') return null;
  if (hash && hash !== '#' && hash !== '#/') return null;
  return `/#${pathname}${search}`;
}

export function convertPlainPath(win: Pick<Window, 'location' | 'history'> = window) {
  const next = hashUrlForPlainPath(win.location);
  if (next) win.history.replaceState(win.history.state, '', next);
}
