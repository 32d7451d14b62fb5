import { type FormEvent, useCallback, useMemo, useState } from 'react';
import type { ZodType, z } from 'zod';

type Values = Record<string, unknown>;

export interface ZodFormField {
  name: string;
  value: string;
  onChange: (event: { currentTarget: { value: string } }) => void;
  onBlur: () => void;
  error: string | undefined;
}

export interface ZodFormCheckbox {
  name: string;
  checked: boolean;
  onChange: (event: { currentTarget: { checked: boolean } }) => void;
  onBlur: () => void;
  error: string | undefined;
}

/**
 * A small form state hook validating with a contract schema (one schema for form and server).
 * Every change re-validates the whole form; a field's message shows once it was touched (blurred)
 * or a submit was attempted. The sign-in screens use it instead of react-hook-form to keep the login
 * route inside its weight budget.
 */
export function useZodForm<S extends ZodType<unknown, Values>>(schema: S, initial: z.input<S>) {
  const [values, setValues] = useState<Values>(initial as Values);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);

  const result = useMemo(() => schema.safeParse(values), [schema, values]);
  const errors = useMemo(() => {
    const out: Record<string, string> = {};
    if (!result.success) {
      for (const issue of result.error.issues) {
        const key = String(issue.path[0] ?? '');
        if (!(key in out)) out[key] = issue.message;
      }
    }
    return out;
  }, [result]);

  const visibleError = useCallback(
    (name: string) => (touched[name] || submitted ? errors[name] : undefined),
    [touched, submitted, errors],
  );

  const setValue = useCallback(
    (name: string, value: unknown) => setValues((v) => ({ ...v, [name]: value })),
    [],
  );
  const touch = useCallback((name: string) => setTouched((t) => (t[name] ? t : { ...t, [name]: true })), []);

  const field = (name: keyof z.input<S> & string): ZodFormField => ({
    name,
    value: String(values[name] ?? ''),
    onChange: (event) => setValue(name, event.currentTarget.value),
    onBlur: () => touch(name),
    error: visibleError(name),
  });

  const checkbox = (name: keyof z.input<S> & string): ZodFormCheckbox => ({
    name,
    checked: Boolean(values[name]),
    onChange: (event) => {
      setValue(name, event.currentTarget.checked);
      touch(name);
    },
    onBlur: () => touch(name),
    error: visibleError(name),
  });

  const handleSubmit = (onValid: (data: z.output<S>) => void | Promise<void>) => (event?: FormEvent) => {
    event?.preventDefault();
    setSubmitted(true);
    if (result.success) return onValid(result.data as z.output<S>);
  };

  return {
    values: values as z.input<S>,
    errors,
    isValid: result.success,
    field,
    checkbox,
    setValue,
    handleSubmit,
    reset: (next: z.input<S> = initial) => {
      setValues(next as Values);
      setTouched({});
      setSubmitted(false);
    },
  };
}
