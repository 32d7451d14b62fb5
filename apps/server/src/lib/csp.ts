/**
 * The origin a map tile URL template loads from, as a CSP source: `https://{s}.tile.example.org/{z}/{x}/{y}.png`
 * → `https://*.tile.example.org`. Null when the template is not an http(s) URL.
 */
export function tileSource(template: string): string | null {
  const filled = template.replace(/\{s\}/g, 'subdomain-wildcard').replace(/\{[^}]*\}/g, '0');
  try {
    const u = new URL(filled);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    return `${u.protocol}//${u.host.replace('subdomain-wildcard', '*')}`;
  } catch {
    return null;
  }
}

/**
 * The Content-Security-Policy directives of every answer (docs/deploying.md): scripts only from the console's
 * own origin and never inline, no framing, images from the origin and the configured tile servers.
 * Styles keep 'unsafe-inline': Mantine and Leaflet set style attributes at run time.
 */
export function cspDirectives(tileUrls: string[]): Record<string, string[]> {
  const tiles = [...new Set(tileUrls.map(tileSource).filter((s): s is string => s !== null))];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...tiles],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}
