import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useMatches } from 'react-router';
import { P, can, type Permission } from '@stadiumcam/contract/lite';
import { useSession } from '../modules/auth/session.hooks.ts';
import { RequirePermission } from '../ui/require-permission.tsx';
import { PageLoader } from '../ui/page-loader.tsx';
import { AppShellLayout } from './shell/app-shell.tsx';
import { SplashScreen } from './shell/splash.tsx';
import { TEMPLATE_PAGES } from './routes.ts';

/**
 * A screen loaded on first visit: every screen is its own chunk, so login and the shell stay
 * light. A new route adds one `page(...)` line here and one entry in the table below.
 */
function page<K extends string, Props extends object>(load: () => Promise<Record<K, ComponentType<Props>>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}
const LoginPage = page(() => import('../modules/auth/login.page.tsx'), 'LoginPage');
const ResetPasswordPage = page(() => import('../modules/auth/reset-password.page.tsx'), 'ResetPasswordPage');
const CalendarPage = page(() => import('../modules/events/calendar.page.tsx'), 'CalendarPage');
const UsersPage = page(() => import('../modules/users/users.page.tsx'), 'UsersPage');
const RolesPage = page(() => import('../modules/roles/roles.page.tsx'), 'RolesPage');
const AuditPage = page(() => import('../modules/audit/audit.page.tsx'), 'AuditPage');
const AlbumPage = page(() => import('../modules/snapshots/album.page.tsx'), 'AlbumPage');
const SnapshotLinkPage = page(() => import('../modules/snapshots/snapshot-link.page.tsx'), 'SnapshotLinkPage');
const MonitorPage = page(() => import('../modules/monitor/monitor.page.tsx'), 'MonitorPage');
const SlideshowPage = page(() => import('../modules/slideshow/slideshow.page.tsx'), 'SlideshowPage');
const PlaceholderPage = page(() => import('../ui/placeholder.page.tsx'), 'PlaceholderPage');
const NotFoundPage = page(() => import('./not-found.page.tsx'), 'NotFoundPage');
const AnalyticsPage = page(() => import('../modules/analytics/analytics.page.tsx'), 'AnalyticsPage');
const EventUsersPage = lazy(async () => ({
  default: (await import('../modules/eventUsers/event-users.page.tsx')).EventUsersPage,
}));
const LanguagesPage = page(() => import('../modules/template/languages.page.tsx'), 'LanguagesPage');
const ColorsPage = page(() => import('../modules/template/colors.page.tsx'), 'ColorsPage');
const CameraConfigsPage = page(() => import('../modules/cameras/camera-configs.page.tsx'), 'CameraConfigsPage');
const MappingConfigPage = page(() => import('../modules/mapping/mapping-config.page.tsx'), 'MappingConfigPage');
const MappingToolPage = page(() => import('../modules/mapping/mapping-tool.page.tsx'), 'MappingToolPage');
const GraphicsPage = page(() => import('../modules/template/graphics.page.tsx'), 'GraphicsPage');
const OverlaysPage = page(() => import('../modules/template/overlays.page.tsx'), 'OverlaysPage');
const SharePage = page(() => import('../modules/template/share.page.tsx'), 'SharePage');
const SeatOptionsPage = page(() => import('../modules/template/seat-options.page.tsx'), 'SeatOptionsPage');
const GeofencePage = page(() => import('../modules/template/geofence.page.tsx'), 'GeofencePage');
const TriviaPage = page(() => import('../modules/template/trivia.page.tsx'), 'TriviaPage');
const SlideshowSettingsPage = page(
  () => import('../modules/template/slideshow-settings.page.tsx'),
  'SlideshowSettingsPage',
);
const ExportImportPage = page(() => import('../modules/template/export.page.tsx'), 'ExportImportPage');

/** The template screens, by route path (routes.ts TEMPLATE_PAGES). */
const TEMPLATE_SCREENS: Record<string, ReactNode> = {
  'template/Languages': <LanguagesPage />,
  'template/colors': <ColorsPage />,
  'template/graphics': <GraphicsPage />,
  'template/overlays': <OverlaysPage />,
  'template/share': <SharePage />,
  'template/seatOptions': <SeatOptionsPage />,
  'template/geofence': <GeofencePage />,
  'template/trivia': <TriviaPage />,
  'template/slideshow': <SlideshowSettingsPage />,
  'template/export': <ExportImportPage />,
};

/** Route data: the page title ("Album · StadiumCam"). */
type Handle = { title?: string };

/** Sets the document title from the deepest route that names one. */
function TitledRoot() {
  const matches = useMatches();
  const title = [...matches].reverse().find((m) => (m.handle as Handle | undefined)?.title)?.handle as
    Handle | undefined;
  useEffect(() => {
    document.title = title?.title ? `${title.title} · StadiumCam` : 'StadiumCam Console';
  }, [title?.title]);
  return (
    <Suspense fallback={<SplashScreen />}>
      <Outlet />
    </Suspense>
  );
}

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
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
    </AppShellLayout>
  );
}

/** The not-found page: inside the shell for a logged-in user, on its own otherwise. */
function NotFoundRoute() {
  const { user, checked } = useSession();
  if (!checked) return <SplashScreen />;
  return user ? (
    <AppShellLayout>
      <NotFoundPage />
    </AppShellLayout>
  ) : (
    <NotFoundPage />
  );
}

const route = (path: string, title: string, element: ReactNode) => ({ path, element, handle: { title } });
const gated = (path: string, title: string, needs: Permission[], element: ReactNode, or?: boolean) =>
  route(
    path,
    title,
    <Gate needs={needs} or={or}>
      {element}
    </Gate>,
  );

export const router = createBrowserRouter([
  {
    element: <TitledRoot />,
    children: [
      route('/login', 'Login', <LoginPage />),
      route('/reset_password/:token?', 'Reset password', <ResetPasswordPage />),
      route('/slideshow', 'Slideshow', <SlideshowPage />),
      {
        path: '/',
        element: <Protected />,
        children: [
          { index: true, element: <CalendarPage />, handle: { title: 'Calendar' } },
          gated('admin/users', 'Users', [P.USERS], <UsersPage />),
          gated('admin/roles', 'Roles', [P.ROLES_READ], <RolesPage />),
          gated('admin/audit', 'Audit log', [P.AUDIT_READ], <AuditPage />),
          route('album', 'Album', <AlbumPage />),
          ...TEMPLATE_PAGES.map((t) =>
            gated(t.path, t.label, t.needs, TEMPLATE_SCREENS[t.path] ?? <PlaceholderPage title={t.label} />, t.or),
          ),
          gated('eventUsers', 'Event Users', [P.EVENT_USERS_READ], <EventUsersPage />),
          gated('monitor', 'Monitor', [P.MONITOR_READ], <MonitorPage />),
          route('snapshot/:snapshotId', 'Photo', <SnapshotLinkPage />),
          gated('analytics/:eventId?', 'Analytics', [P.ANALYTICS_READ], <AnalyticsPage />),
          gated('config/camera', 'Camera Configs', [P.CONFIG], <CameraConfigsPage />),
          gated('config/mapping', 'Mapping Config', [P.CONFIG], <MappingConfigPage />),
          gated('mapping', 'Mapping', [P.CONFIG], <MappingToolPage />),
        ],
      },
      // No access check (spec 3 §6): a logged-out visitor sees it too, without the shell.
      route('*', 'Page not found', <NotFoundRoute />),
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
