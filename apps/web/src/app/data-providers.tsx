import { useNotifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';
import { onDemand, useOnDemand } from '../components/on-demand.tsx';

const Mounted = createContext(false);

/** The toasts' container (react-transition-group and all): fetched when the first toast is shown. */
const toastsModule = onDemand(() => import('./toasts.tsx'));

export interface DataProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

/**
 * Data and toasts. Only the signed-in area needs them, so they load with the page frame and stay off the
 * sign-in route's budget; the toasts' container comes with the first toast (the store keeps it meanwhile).
 * Mounting them twice (a test wraps a frame) is a no-op. Confirm modals (`modals.open…`) are provided by the
 * page that opens them (ui-features/modals-page.tsx).
 */
export function DataProviders({ queryClient, children }: DataProvidersProps) {
  if (useContext(Mounted)) return children;
  return (
    <Mounted.Provider value>
      <QueryClientProvider client={queryClient}>
        <Toasts />
        {children}
      </QueryClientProvider>
    </Mounted.Provider>
  );
}

function Toasts() {
  const { notifications, queue } = useNotifications();
  const loaded = useOnDemand(toastsModule, notifications.length + queue.length > 0);
  return loaded ? <loaded.Toasts /> : null;
}
