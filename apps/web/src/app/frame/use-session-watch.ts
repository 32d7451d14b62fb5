import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { authFlashStore } from '../../lib/auth/auth-service.ts';
import { sessionStore } from '../../lib/auth/session.ts';
import { verifyToken } from '../../lib/auth/session-calls.ts';
import { createToken } from '../../lib/auth/token.ts';
import { whenFirstViewDrawn } from '../../lib/when-first-view-drawn.ts';

/** How often the token is re-verified with the server while the console is open. */
const VERIFY_EVERY_MS = 5 * 60_000;

/**
 * While signed in: the sign-in flash is spent; the token is verified with the server on entry (once a
 * dashboard's first reads have answered and been drawn: lib/first-view-gate.ts), on return to the tab and every
 * few minutes ('Signature has expired.' → auth/logout, other failures
 * ignored); and the session ends by itself when the token's `exp` passes.
 */
export function useSessionWatch() {
  const navigate = useNavigate();

  useEffect(() => {
    authFlashStore.set(null);
    let stopped = false;
    const check = async () => {
      if ((await verifyToken()) === 'expired' && !stopped) navigate('/auth/logout', { replace: true });
    };
    const cancelFirst = whenFirstViewDrawn(() => void check());
    const interval = setInterval(check, VERIFY_EVERY_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      cancelFirst();
      clearInterval(interval);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [navigate]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      let expiry: Date | null = null;
      try {
        expiry = createToken(sessionStore.get().token).getExpiration();
      } catch {
        expiry = null;
      }
      if (!expiry) return;
      // setTimeout holds 32-bit delays only; a far expiry is re-armed later.
      const delay = Math.min(Math.max(expiry.getTime() - Date.now(), 0), 2 ** 31 - 1);
      timer = setTimeout(() => {
        if (expiry && expiry.getTime() <= Date.now()) navigate('/auth/logout', { replace: true });
        else arm();
      }, delay);
    };
    arm();
    const unsubscribe = sessionStore.subscribe(arm);
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [navigate]);
}
