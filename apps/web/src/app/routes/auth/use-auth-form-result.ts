import { AUTH_REDIRECT_DELAY_MS } from '@forecourt/contract/rules';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { AuthResult } from '../../../lib/auth/auth-result.ts';
import { authFlashStore } from '../../../lib/auth/auth-service.ts';

/**
 * State shared by register, request-password and reset-password: errors and messages of the last
 * result, the submitting flag, and the redirect to the result's target after 500 ms. When that
 * target is the login page, the messages travel along so it can show them.
 */
export function useAuthFormResult() {
  const navigate = useNavigate();
  const [flash] = useState(() => authFlashStore.get());
  const [errors, setErrors] = useState<string[]>(flash?.errors ?? []);
  const [messages, setMessages] = useState<string[]>(flash?.messages ?? []);
  const [submitting, setSubmitting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    authFlashStore.set(null);
    return () => clearTimeout(timer.current);
  }, []);

  const run = useCallback(
    async (call: () => Promise<AuthResult>) => {
      setSubmitting(true);
      setErrors([]);
      setMessages([]);
      const result = await call();
      setSubmitting(false);
      setErrors(result.success ? [] : result.errors);
      setMessages(result.success ? result.messages : []);
      if (result.redirect) {
        timer.current = setTimeout(() => {
          if (result.redirect.startsWith('/auth/'))
            authFlashStore.set({ errors: [], messages: result.messages });
          navigate(result.redirect);
        }, AUTH_REDIRECT_DELAY_MS);
      }
      return result;
    },
    [navigate],
  );

  return { errors, messages, submitting, run };
}
