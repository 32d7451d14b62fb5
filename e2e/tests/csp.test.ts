import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { journey, networkQuiet, type Page, watchNetwork } from '../src/journey.ts';

/**
 * The Content-Security-Policy (docs/deploying.md) holds in the real console: no inline script, no framing,
 * and no screen triggers a violation (the browser reports each one as a `securitypolicyviolation` event).
 */

const j = journey();
const { signedIn, url } = j;

/** Collects CSP violations from the first script on: the init script runs before any of the page's. */
async function watchViolations(p: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  p.on('console', (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply|frame)/i.test(m.text()))
      fromConsole.push(m.text());
  });
  await p.context().addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  return async () => [
    ...fromConsole,
    ...(await p.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])),
  ];
}

/** Opens a hash route and waits until its main heading is there and the network is idle. */
async function visit(p: Page, hash: string, heading: RegExp) {
  watchNetwork(p);
  await p.goto(url(hash));
  await p.getByRole('heading', { level: 1, name: heading }).first().waitFor();
  // The signed-in pages keep their stream of changes open: 'networkidle' would never come.
  await networkQuiet(p).catch(() => undefined);
}

describe('content security policy', () => {
  it('is sent with no inline script and no framing, on the console and the API alike', async () => {
    for (const path of ['/', '/api/config']) {
      const res = await fetch(`${j.server.url}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? '';
      assert.match(scriptSrc, /'self'/, csp);
      assert.doesNotMatch(scriptSrc, /unsafe-inline|unsafe-eval/, csp);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /img-src [^;]*https:\/\/tile\.openstreetmap\.org/);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.ok(res.headers.get('referrer-policy'));
    }
    const html = await (await fetch(`${j.server.url}/`)).text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline <script> in index.html');
  });

  it('no screen of an agent triggers a violation: dashboards, a log, the dark theme', async () => {
    const p = await signedIn('agent', { dark: true });
    const violations = await watchViolations(p);
    // A fresh document, so the watcher runs first; the stored theme applies before the app starts
    // (theme-init.js, a file rather than an inline script).
    await p.reload();
    assert.equal(await p.evaluate(() => document.documentElement.dataset.mantineColorScheme), 'dark');
    await visit(p, '/agent/dashboard', /^Dashboard$/);
    const agentId = (await p.getByTestId('dashboard-scope').textContent())?.replace(/\D/g, '') ?? '1';
    await visit(p, '/company/1/dashboard', /^Dashboard$/);
    await visit(p, '/company/1/site/1/dashboard', /^Dashboard$/);
    await visit(p, `/agent/${agentId}/alert/log/`, /log/i);
    await visit(p, '/profile', /./);
    assert.deepEqual(await violations(), []);
  });
});
