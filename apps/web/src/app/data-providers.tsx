import { TOAST_TIMEOUT_MS } from '@forecourt/contract/rules';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';

const Mounted = createContext(false);

export interface DataProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

/**
 * Data, toasts and modals. Only the signed-in area needs them, so they load with the page frame and
 * stay off the sign-in route's budget. Mounting them twice (a test wraps a frame) is a no-op.
 */
export function DataProviders({ queryClient, children }: DataProvidersProps) {
  if (useContext(Mounted)) return children;
  return (
    <Mounted.Provider value>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications position="top-right" limit={5} zIndex={1000} autoClose={TOAST_TIMEOUT_MS} />
          {children}
        </ModalsProvider>
      </QueryClientProvider>
    </Mounted.Provider>
  );
}
