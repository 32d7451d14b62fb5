import FormAlertList from './form-alert-list.tsx';

export interface FormAlertsProps {
  errors: string[];
  messages: string[];
  /** While a request is in flight neither alert shows. */
  submitting: boolean;
}

/**
 * The red 'Oh snap!' alert listing errors and the green 'Hooray!' alert listing messages. They come with the sign-in
 * screens: loaded on demand (decision 0006), the login page could miss the message a redirect asked it to repeat
 * (the request-password unit test failed that way under load).
 */
export function FormAlerts({ errors, messages, submitting }: FormAlertsProps) {
  if (submitting || (!errors.length && !messages.length)) return null;
  return <FormAlertList errors={errors} messages={messages} />;
}
