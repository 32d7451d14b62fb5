import type { FormCheck, FormInput } from '@forecourt/contract/auth-rules';
import { type FormEvent, useCallback, useMemo, useState } from 'react';

export interface FormField {
  name: string;
  value: string;
  onChange: (event: { currentTarget: { value: string } }) => void;
  onBlur: () => void;
  error: string | undefined;
}

export interface FormCheckbox {
  name: string;
  checked: boolean;
  onChange: (event: { currentTarget: { checked: boolean } }) => void;
  onBlur: () => void;
  error: string | undefined;
}

/**
 * A small form state hook validating with one of the contract's form checks (`@forecourt/contract/auth-rules`,
 * held to the server's zod schemas by the contract's tests). Every change re-validates the whole form; a
 * field's message shows once it was touched (blurred) or a submit was attempted. The sign-in screens use it
 * instead of react-hook-form and zod to keep the login route inside its weight budget.
 */
export function useForm<T>(check: (values: FormInput<T>) => FormCheck<T>, initial: FormInput<T>) {
  type Name = keyof T & string;
  const [values, setValues] = useState<FormInput<T>>(initial);
  const [touched, setTouched] = useState<Partial<Record<Name, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);

  const result = useMemo(() => check(values), [check, values]);
  const errors = result.errors;

  const visibleError = useCallback(
    (name: Name) => (touched[name] || submitted ? errors[name] : undefined),
    [touched, submitted, errors],
  );

  const setValue = useCallback(
    (name: Name, value: string | boolean) => setValues((v) => ({ ...v, [name]: value })),
    [],
  );
  const touch = useCallback((name: Name) => setTouched((t) => (t[name] ? t : { ...t, [name]: true })), []);

  const field = (name: Name): FormField => ({
    name,
    value: String(values[name] ?? ''),
    onChange: (event) => setValue(name, event.currentTarget.value),
    onBlur: () => touch(name),
    error: visibleError(name),
  });

  const checkbox = (name: Name): FormCheckbox => ({
    name,
    checked: Boolean(values[name]),
    onChange: (event) => {
      setValue(name, event.currentTarget.checked);
      touch(name);
    },
    onBlur: () => touch(name),
    error: visibleError(name),
  });

  const handleSubmit = (onValid: (data: T) => void | Promise<void>) => (event?: FormEvent) => {
    event?.preventDefault();
    setSubmitted(true);
    if (result.data) return onValid(result.data);
  };

  return {
    values,
    errors,
    isValid: result.data !== null,
    field,
    checkbox,
    setValue,
    handleSubmit,
    reset: (next: FormInput<T> = initial) => {
      setValues(next);
      setTouched({});
      setSubmitted(false);
    },
  };
}
