import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dropzone/styles.css';
import '@mantine/charts/styles.css';
import './a11y.css';
import type { ReactNode } from 'react';
import { MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider, onlineManager } from '@tanstack/react-query';
import { MSG, TOAST_EXIT_MS, TOAST_LIMIT, TOAST_MS } from '@stadiumcam/contract/lite';
import { ApiError } from '../ui/api.ts';
import { onConsoleReconnect } from '../ui/socket.ts';

/**
 * Every text at least 4.5:1 on its background in both schemes (issue 28 point 4,
 * docs/accessibility.md): the accent's filled shade is teal 9 (white on it 5.0:1; Mantine's
 * teal 8 gave 3.9:1, teal 6 2.6:1), and a filled button of any colour takes black or white text,
 * whichever reads better (`autoContrast` with the luminance where both contrasts are equal).
 */
const theme = createTheme({
  primaryColor: 'teal',
  primaryShade: { light: 9, dark: 9 },
  autoContrast: true,
  luminanceThreshold: 0.179,
  defaultRadius: 'sm',
  fontFamily: 'Inter, system-ui, -apple-system, Segoe UI, Roboto, sans-serif',
  // Names for Mantine's icon-only buttons (plain objects: no component enters the login's bundle).
  components: {
    ColorInput: { defaultProps: { eyeDropperButtonProps: { 'aria-label': MSG.a11y.pickColour } } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': MSG.a11y.close } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': MSG.a11y.close } } },
    // Toasts (notifications.show): their close button had no name, axe's critical 'button-name'
    // whenever a fan's share toast was on the monitor.
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': MSG.a11y.close } } },
    // A spinner is a status: a bare <span> may not carry the aria-label a loading panel gives it
    // (axe's serious 'aria-prohibited-attr', caught on analytics while a panel loaded).
    Loader: { defaultProps: { role: 'status' } },
    Pagination: {
      defaultProps: {
        getControlProps: (control: 'first' | 'previous' | 'last' | 'next') => ({
          'aria-label': {
            first: MSG.a11y.firstPage,
            previous: MSG.a11y.previousPage,
            next: MSG.a11y.nextPage,
            last: MSG.a11y.lastPage,
          }[control],
        }),
      },
    },
  },
});

/**
 * Mantine's grey texts fall short on their backgrounds (dimmed #828282 on #242424 is 4.0:1,
 * #868e96 on white 3.3:1; the light scheme's blue links 3.6:1, red error text 3.3:1): lighter in
 * the dark scheme, darker in the light one. Each pair is measured in docs/accessibility.md.
 */
const contrastVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': 'var(--mantine-color-blue-8)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    '--mantine-color-gray-filled': 'var(--mantine-color-gray-7)',
    '--mantine-color-red-filled': 'var(--mantine-color-red-9)',
    '--mantine-color-red-text': 'var(--mantine-color-red-9)',
    '--mantine-color-orange-text': '#a83a0c',
    '--mantine-color-green-text': '#1e6b2f',
    '--mantine-color-blue-text': 'var(--mantine-color-blue-8)',
    '--mantine-color-yellow-text': '#7a4a00',
    '--mantine-color-grape-text': 'var(--mantine-color-grape-9)',
    // Light variants (a tinted background, e.g. the menu's active entry): teal 9 on teal 1 is 4.3:1.
    '--mantine-color-teal-light-color': '#0b5f45',
    '--mantine-color-yellow-light-color': '#7a4a00',
    '--mantine-color-orange-light-color': '#a83a0c',
    '--mantine-color-green-light-color': '#1e6b2f',
    '--mantine-color-red-light-color': '#a61e1e',
    '--mantine-color-lime-light-color': '#3b5e08',
  },
  dark: {
    '--mantine-color-dimmed': '#a3a3a3',
    '--mantine-color-placeholder': '#a3a3a3',
    '--mantine-color-error': 'var(--mantine-color-red-5)',
  },
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
    <MantineProvider theme={theme} defaultColorScheme="dark" cssVariablesResolver={contrastVariables}>
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
