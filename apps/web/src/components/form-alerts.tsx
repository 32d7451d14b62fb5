import { lazy, Suspense } from 'react';

export interface FormAlertsProps {
  errors: string[];
  messages: string[];
  /** While a request is in flight neither alert shows. */
  submitting: boolean;
}

const loadAlertList = () => import('./form-alert-list.tsx');
const FormAlertList = lazy(loadAlertList);

/**
 * Fetch the alerts' code ahead, e.g. when a form is sent: the login page shows without it (Mantine's Alert
 * and List), and the answer then finds it loaded.
 */
export function preloadFormAlerts() {
  loadAlertList().catch(() => undefined);
}

/** The red 'Oh snap!' alert listing errors and the green 'Hooray!' alert listing messages. */
export function FormAlerts({ errors, messages, submitting }: FormAlertsProps) {
  if (submitting || (!errors.length && !messages.length)) return null;
  return (
    <Suspense fallback={null}>
      <FormAlertList errors={errors} messages={messages} />
    </Suspense>
  );
}
