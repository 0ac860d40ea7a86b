import { lazy, Suspense, type ReactNode } from 'react';
import {
  ActionIcon,
  Alert,
  AppShell,
  Burger,
  Group,
  Menu,
  Text,
  Tooltip,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { IconCamera, IconDotsVertical, IconLogout, IconMoon, IconSun } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { MSG } from '@stadiumcam/contract/lite';
import { useLogout, useRolesAfterLogin, useSession } from '../../modules/auth/session.hooks.ts';
import { SideMenu } from './side-menu.tsx';
import { useLightbox } from '../../modules/snapshots/lightbox.store.ts';
import { useOnline } from '../../ui/online.ts';

// The lightbox is loaded the first time a photo is opened: it is not part of the shell's chunk.
// Header tools the login page never shows, loaded beside the shell (bench:console's login + shell budget).
const AttendeeAppLink = lazy(() =>
  import('../../modules/template/attendee-app-link.tsx').then((m) => ({ default: m.AttendeeAppLink })),
);
const LiveMetricsButton = lazy(() =>
  import('../../modules/events/live-metrics-button.tsx').then((m) => ({ default: m.LiveMetricsButton })),
);
const PowerMenu = lazy(() => import('../../modules/events/power-menu.tsx').then((m) => ({ default: m.PowerMenu })));
const CameraIndicator = lazy(() =>
  import('../../modules/cameras/camera-indicator.tsx').then((m) => ({ default: m.CameraIndicator })),
);
const HeaderNotifications = lazy(() =>
  import('../../modules/notifications/notifications-list.tsx').then((m) => ({ default: m.HeaderNotifications })),
);
// The header's event (selector, status, sync of the selection) needs a session: loaded with the
// first page after login, not with the login page.
const HeaderEvent = lazy(() =>
  import('../../modules/events/header-event.tsx').then((m) => ({ default: m.HeaderEvent })),
);
const Lightbox = lazy(() => import('../../modules/snapshots/lightbox.tsx').then((m) => ({ default: m.Lightbox })));

/** The shell's main region: the skip link's target. */
export const MAIN_ID = 'main-content';

export function AppShellLayout({ children }: { children: ReactNode }) {
  const [opened, { toggle }] = useDisclosure(true);
  const { user } = useSession();
  useRolesAfterLogin();
  const lightboxOpen = useLightbox() !== null;
  const logout = useLogout();
  const navigate = useNavigate();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('dark');
  // Ctrl/Cmd+P prints the current page (spec 1 §2 Global).
  useHotkeys([['mod+P', () => window.print()]]);

  const online = useOnline();
  const handleLogout = () => {
    logout.mutate(undefined, { onSettled: () => void navigate('/login', { replace: true }) });
  };

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { desktop: !opened, mobile: !opened } }}
      padding="md"
    >
      {/* The first Tab stop: past the header and the menu to the screen itself. */}
      <a className="skip-link" href={`#${MAIN_ID}`} data-testid="skip-link">
        {MSG.a11y.skipToMain}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} size="sm" aria-label="Toggle menu" />
            <IconCamera size={22} />
            <Text fw={700} visibleFrom="sm">
              StadiumCam
            </Text>
            <Suspense>
              <HeaderEvent />
            </Suspense>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Suspense>
              <LiveMetricsButton />
            </Suspense>
            <Suspense>
              <HeaderNotifications />
            </Suspense>
            <Suspense>
              <CameraIndicator />
            </Suspense>
            <Suspense>
              <PowerMenu />
            </Suspense>
            <Suspense>
              <AttendeeAppLink />
            </Suspense>
            <Tooltip label={scheme === 'dark' ? 'Light mode' : 'Dark mode'}>
              <ActionIcon
                variant="subtle"
                aria-label="Toggle colour scheme"
                onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
              >
                {scheme === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />}
              </ActionIcon>
            </Tooltip>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" aria-label="More">
                  <IconDotsVertical size={18} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{user?.username}</Menu.Label>
                <Menu.Item leftSection={<IconLogout size={16} />} onClick={handleLogout}>
                  Log Out
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={MSG.a11y.sideMenu}>
        <SideMenu />
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID} tabIndex={-1}>
        {!online && (
          <Alert color="orange" variant="filled" mb="sm" role="status" data-testid="offline-banner">
            {MSG.common.offline}
          </Alert>
        )}
        {children}
      </AppShell.Main>
      {lightboxOpen && (
        <Suspense>
          <Lightbox />
        </Suspense>
      )}
    </AppShell>
  );
}
