import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, RouterProvider } from 'react-router';
import { P, can, type Permission } from '@stadiumcam/contract';
import { useSession } from '../modules/auth/session.hooks.ts';
import { LoginPage } from '../modules/auth/login.page.tsx';
import { ResetPasswordPage } from '../modules/auth/reset-password.page.tsx';
import { CalendarPage } from '../modules/events/calendar.page.tsx';
import { UsersPage } from '../modules/users/users.page.tsx';
import { RolesPage } from '../modules/roles/roles.page.tsx';
import { AlbumPage } from '../modules/snapshots/album.page.tsx';
import { SnapshotLinkPage } from '../modules/snapshots/snapshot-link.page.tsx';
import { MonitorPage } from '../modules/monitor/monitor.page.tsx';
import { SlideshowPage } from '../modules/slideshow/slideshow.page.tsx';
import { PlaceholderPage } from '../ui/placeholder.page.tsx';
import { RequirePermission } from '../ui/require-permission.tsx';
import { AppShellLayout } from './shell/app-shell.tsx';
import { NotFoundPage } from './not-found.page.tsx';
import { SplashScreen } from './shell/splash.tsx';
import { TEMPLATE_PAGES } from './routes.ts';

function Gate({ needs, or, children }: { needs: Permission[]; or?: boolean; children: ReactNode }) {
  const { permissions } = useSession();
  return <RequirePermission allowed={can(permissions, needs, { or })}>{children}</RequirePermission>;
}

/** The shell: splash while the session check runs, /login when logged out. */
function Protected() {
  const { user, checked } = useSession();
  if (!checked) return <SplashScreen />;
  if (!user) return <Navigate to="/login" replace />;
  return (
    <AppShellLayout>
      <Outlet />
    </AppShellLayout>
  );
}

const gated = (path: string, needs: Permission[], element: ReactNode, or?: boolean) => ({
  path,
  element: (
    <Gate needs={needs} or={or}>
      {element}
    </Gate>
  ),
});

export const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  { path: '/reset_password/:token?', element: <ResetPasswordPage /> },
  { path: '/slideshow', element: <SlideshowPage /> },
  {
    path: '/',
    element: <Protected />,
    children: [
      { index: true, element: <CalendarPage /> },
      gated('admin/users', [P.USERS], <UsersPage />),
      gated('admin/roles', [P.ROLES_READ], <RolesPage />),
      { path: 'album', element: <AlbumPage /> },
      ...TEMPLATE_PAGES.map((t) => gated(t.path, t.needs, <PlaceholderPage title={t.label} />, t.or)),
      gated('eventUsers', [P.EVENT_USERS_READ], <PlaceholderPage title="Event Users" />),
      gated('monitor', [P.MONITOR_READ], <MonitorPage />),
      { path: 'snapshot/:snapshotId', element: <SnapshotLinkPage /> },
      gated('analytics/:eventId?', [P.ANALYTICS_READ], <PlaceholderPage title="Analytics" />),
      gated('config/camera', [P.CONFIG], <PlaceholderPage title="Camera Configs" />),
      gated('config/mapping', [P.CONFIG], <PlaceholderPage title="Mapping Config" />),
      gated('mapping', [P.CONFIG], <PlaceholderPage title="Mapping" />),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
