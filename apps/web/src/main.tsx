import './theme/core-styles.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { createI18n, translationsReady } from './i18n/i18n.ts';
import { authProvider } from './lib/auth/auth-service.ts';
import { hasSession } from './lib/auth/session.ts';
import { convertPlainPath } from './lib/plain-path.ts';

// Fail fast on a misconfigured provider name (TypeError: ... is not registered).
authProvider();

// `/site/3/pump/status/log` typed into the address bar opens `#/site/3/pump/status/log`.
convertPlainPath();

// i18next asks for the translations in a timer of its own: created first, that request leaves before the
// signed-in page's files and first reads below, which it is as needed for (decision 0006: the translations were
// the last request of a dashboard's first paint on a phone's six connections).
const i18n = createI18n();

// Signed in already: the frame and the dashboard load in parallel with the translations. A chunk of its own
// (vite.config.ts), which theme-init.js has already asked for: not on the login route, and the requests it starts
// (~10 ms on a desktop, ~23 ms at 4× CPU) are not part of the entry's evaluation, the longest task of a
// signed-in page's start (decision 0006).
const firstViewModules = hasSession()
  ? import('./app/boot/start.ts').then(
      (m) => m.startSignedIn(),
      () => undefined,
    )
  : undefined;

/**
 * The first render waits (boot screen on show, index.html) for the translations and, signed in, the frame and the
 * dashboard's code: rendered sooner it would only show a Suspense fallback, and React holds the content that
 * replaces a fallback until 300 ms after it appeared, so the page would show ~300 ms later (decision 0006). No longer
 * than this, though: a slow network then gets the fallbacks.
 */
const FIRST_RENDER_WAIT_MAX_MS = 4_000;

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

const reactRoot = createRoot(root);
const render = () =>
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App i18n={i18n} />
      </StrictMode>,
    );
  });
void Promise.race([
  Promise.all([translationsReady(), firstViewModules]),
  new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MAX_MS)),
]).then(render);
