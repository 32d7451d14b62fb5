import { TOAST_TIMEOUT_MS } from '@forecourt/contract/rules';
import { Notifications } from '@mantine/notifications';

/** Where lib/toast.ts's toasts show (data-providers.tsx mounts it with the first one). */
export function Toasts() {
  return <Notifications position="top-right" limit={5} zIndex={1000} autoClose={TOAST_TIMEOUT_MS} />;
}
