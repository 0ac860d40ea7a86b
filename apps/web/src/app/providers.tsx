import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dropzone/styles.css';
import '@mantine/charts/styles.css';
import type { ReactNode } from 'react';
import { MantineProvider, createTheme } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider, onlineManager } from '@tanstack/react-query';
import { TOAST_EXIT_MS, TOAST_LIMIT, TOAST_MS } from '@stadiumcam/contract/lite';
import { ApiError } from '../ui/api.ts';
import { onConsoleReconnect } from '../ui/socket.ts';

const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'sm',
  fontFamily: 'Inter, system-ui, -apple-system, Segoe UI, Roboto, sans-serif',
});

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      // A 4xx will not fix itself by asking again.
      retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
    },
  },
});

// Opened offline (from the service worker), queries wait for the network instead of failing:
// the session check would otherwise read as logged out (spec 3 §4 Global, offline mode).
onlineManager.setOnline(navigator.onLine);

// Whatever the server pushed while the socket was down is lost: ask again for all that is shown
// (photos, notifications, counts, metrics), so a reconnect misses nothing (docs/security.md).
onConsoleReconnect(() => void queryClient.invalidateQueries());

export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications
            position="bottom-right"
            autoClose={TOAST_MS}
            limit={TOAST_LIMIT}
            transitionDuration={TOAST_EXIT_MS}
          />
          {children}
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
