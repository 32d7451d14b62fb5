import { AUTH_REDIRECT_DELAY_MS } from '@forecourt/contract/rules';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { AuthResult } from '../../../lib/auth/auth-result.ts';
import { authFlashStore } from '../../../lib/auth/auth-service.ts';

/**
 * The alerts of a sign-in screen: first what the previous screen left for it (the flash, read once), then
 * the last result's errors and messages; nothing while a request is in flight (`start` … `settle`).
 */
export function useAuthAlerts() {
  const [flash] = useState(() => authFlashStore.get());
  const [errors, setErrors] = useState<string[]>(flash?.errors ?? []);
  const [messages, setMessages] = useState<string[]>(flash?.messages ?? []);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    authFlashStore.set(null);
  }, []);

  const start = useCallback(() => {
    setSubmitting(true);
    setErrors([]);
    setMessages([]);
  }, []);
  const settle = useCallback((result: AuthResult) => {
    setSubmitting(false);
    setErrors(result.success ? [] : result.errors);
    setMessages(result.success ? result.messages : []);
  }, []);

  return { flash, errors, messages, submitting, start, settle };
}

/**
 * State shared by register, request-password and reset-password: the alerts, and the redirect to the
 * result's target after 500 ms. When that target is the login page, the messages travel along so it can
 * show them.
 */
export function useAuthFormResult() {
  const navigate = useNavigate();
  const { errors, messages, submitting, start, settle } = useAuthAlerts();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const run = useCallback(
    async (call: () => Promise<AuthResult>) => {
      start();
      const result = await call();
      settle(result);
      if (result.redirect) {
        timer.current = setTimeout(() => {
          if (result.redirect.startsWith('/auth/'))
            authFlashStore.set({ errors: [], messages: result.messages });
          navigate(result.redirect);
        }, AUTH_REDIRECT_DELAY_MS);
      }
      return result;
    },
    [navigate, start, settle],
  );

  return { errors, messages, submitting, run };
}
