/**
 * The permission tree (spec 1 §6, spec 3 §6). Holding a child implies its parents, so a
 * role that holds `Magicshots:write` can also read the monitor. The constant names are
 * the TypeScript names of the values; the values are what roles store.
 */
export const P = {
  EVENT_WRITE: 'Event:write',
  DAY_CLICK_CREATE_EVENT: 'calendar_day_createEvent',
  EDIT_EVENT: 'calendar_eventMenu_editEvent',
  DELETE_EVENT: 'calendar_eventMenu_deleteEvent',
  ANALYTICS_READ: 'Analytics:read',
  ANALYTICS_GA_READ: 'AnalyticsGA:read',
  ANALYTICS_VISION_READ: 'AnalyticsVision:read',
  MONITOR_READ: 'Monitor:read',
  MAGICSHOTS_READ: 'Magicshots:read',
  MAGICSHOTS_WRITE: 'Magicshots:write',
  PHOTOS_WRITE: 'Photos:write',
  PHOTOS_DOWNLOAD: 'Photos:download',
  PHOTOS_EMAIL: 'Photos:email',
  ROLES_READ: 'Roles:read',
  ROLES_WRITE: 'Roles:write',
  EVENT_USERS_READ: 'EventUsers:read',
  EVENT_USERS_WRITE: 'EventUsers:write',
  USERS: 'Users',
  AUDIT_READ: 'Audit:read',
  CONFIG: 'Config',
  TEMPLATE: 'Template',
  TRIVIA: 'Trivia',
  GRAPHICS: 'Graphics',
  OVERLAYS: 'Overlays',
  SLIDESHOW: 'Slideshow',
  LIVE_METRIC: 'main_header_liveMetric',
  POWER_BTN: 'main_header_powerBtn',
  CAM_STATUS: 'main_header_camStatus',
  DELETE_PHOTO: 'album_snapshot_deleteBtn',
  BAN_PHOTO_USER: 'album_snapshot_banBtn',
  SELECT_PHOTO: 'album_snapshot_selectBtn',
  USER_INFO_ACCORDITION: 'lightbox_infoSidebar_userInfo',
  EXIF_ACCORDITION: 'lightbox_infoSidebar_exif',
  VISION_ACCORDITION: 'lightbox_infoSidebar_vision',
} as const;

export type Permission = (typeof P)[keyof typeof P];

export type PermissionNode = { name: Permission; description: string; children: PermissionNode[] };

const node = (name: Permission, description: string, children: PermissionNode[] = []): PermissionNode => ({
  name,
  description,
  children,
});

export const PERMISSION_TREE: PermissionNode[] = [
  node(P.EVENT_WRITE, 'Edit events: status, times, promotions and configuration.', [
    node(P.DAY_CLICK_CREATE_EVENT, 'Create events by clicking days in the calendar.'),
    node(P.EDIT_EVENT, 'Edit an event from its calendar menu.'),
    node(P.DELETE_EVENT, 'Delete an event from its calendar menu.'),
  ]),
  node(P.MONITOR_READ, 'Open the live monitor: camera streams, queues and notifications.', [
    node(P.MAGICSHOTS_WRITE, 'Take photos (MagicShots) from the monitor.'),
  ]),
  node(P.MAGICSHOTS_READ, 'See the Magicshots tab and the photos taken by operators.'),
  node(P.PHOTOS_WRITE, 'Moderate the album: favourite, ban and delete photos.'),
  // Attendees' photos leaving the console (docs/security.md §6, §8): not implied by any page.
  node(P.PHOTOS_DOWNLOAD, 'Download raw photos and archives, and export encrypted archives of photos.'),
  node(P.PHOTOS_EMAIL, 'Share photos by e-mail.'),
  node(P.DELETE_PHOTO, 'Show the delete button on album photos.'),
  node(P.BAN_PHOTO_USER, 'Show the ban menu (photo or user) on album photos.'),
  node(P.SELECT_PHOTO, 'Select album photos for bulk actions.'),
  node(P.USER_INFO_ACCORDITION, 'See the User Information card in the lightbox.'),
  node(P.EXIF_ACCORDITION, 'See the Exif Data card in the lightbox.'),
  node(P.VISION_ACCORDITION, 'See the vision (face analysis) card in the lightbox.'),
  node(P.ANALYTICS_READ, 'Read analytics for an event.', [
    node(P.ANALYTICS_GA_READ, 'Read analytics for an event: web analytics panels.'),
    node(P.ANALYTICS_VISION_READ, 'Read analytics for an event: vision (face analysis) panels.'),
  ]),
  node(P.ROLES_READ, 'View roles and their permissions.', [
    node(P.ROLES_WRITE, 'Create, edit and delete roles with the checkbox tree.'),
  ]),
  node(P.EVENT_USERS_READ, 'View and export the people who took photos at an event.', [
    node(P.EVENT_USERS_WRITE, 'Ban, unban and delete event users.'),
  ]),
  node(P.USERS, 'Open the Users page: create, edit and delete console users.'),
  // Admin menu group (Users, Roles, Audit log): the operator's record (issue 32 §1, docs/audit.md).
  node(P.AUDIT_READ, 'Admin: read and export the audit log (who did what, when, from where).'),
  node(P.CONFIG, 'Open the camera configuration and mapping tools.'),
  node(P.TEMPLATE, 'Open every template configuration page.'),
  node(P.TRIVIA, 'Open the Trivia page.'),
  node(P.GRAPHICS, 'Open the Graphics page.'),
  node(P.OVERLAYS, 'Open the Overlays page.'),
  node(P.SLIDESHOW, 'Open the Slideshow settings page.'),
  node(P.LIVE_METRIC, 'See and extend the Live Metrics drawer in the header.'),
  node(P.POWER_BTN, 'Use the power menu: event status, cameras, demo mode.'),
  node(P.CAM_STATUS, 'See the camera status indicator in the header.'),
];

const parentOf = new Map<Permission, Permission | null>();
const childrenOf = new Map<Permission, Permission[]>();
(function index(nodes: PermissionNode[], parent: Permission | null) {
  for (const n of nodes) {
    parentOf.set(n.name, parent);
    childrenOf.set(
      n.name,
      n.children.map((c) => c.name),
    );
    index(n.children, n.name);
  }
})(PERMISSION_TREE, null);

export const ALL_PERMISSIONS = [...parentOf.keys()];

export const isPermission = (name: string): name is Permission => parentOf.has(name as Permission);

/** The node's ancestors, nearest first. */
export function ancestorsOf(name: Permission): Permission[] {
  const out: Permission[] = [];
  for (let p = parentOf.get(name) ?? null; p; p = parentOf.get(p) ?? null) out.push(p);
  return out;
}

/** The node's descendants, depth first. */
export function descendantsOf(name: Permission): Permission[] {
  return (childrenOf.get(name) ?? []).flatMap((c) => [c, ...descendantsOf(c)]);
}

/** What a list of held names grants: the names plus every ancestor. Unknown names are dropped. */
export function effectivePermissions(held: readonly string[]): Set<Permission> {
  const out = new Set<Permission>();
  for (const name of held) {
    if (!isPermission(name)) continue;
    out.add(name);
    for (const a of ancestorsOf(name)) out.add(a);
  }
  return out;
}

/** Role editor rule: checking a node adds its ancestors; unchecking removes its descendants. */
export function togglePermission(list: readonly Permission[], name: Permission, checked: boolean): Permission[] {
  const set = new Set(list);
  if (checked) {
    set.add(name);
    for (const a of ancestorsOf(name)) set.add(a);
  } else {
    set.delete(name);
    for (const d of descendantsOf(name)) set.delete(d);
  }
  return ALL_PERMISSIONS.filter((p) => set.has(p));
}

/**
 * The one check used by the server's guards and the console's gates: all required, or
 * any one when `or` is set. An empty requirement passes.
 */
export function can(
  granted: ReadonlySet<Permission> | readonly Permission[],
  required: Permission | readonly Permission[],
  opts: { or?: boolean } = {},
): boolean {
  const set = granted instanceof Set ? granted : new Set(granted as readonly Permission[]);
  const list = (Array.isArray(required) ? required : [required]) as readonly Permission[];
  if (list.length === 0) return true;
  return opts.or ? list.some((p) => set.has(p)) : list.every((p) => set.has(p));
}

export const ADMIN_ROLE = 'admin';
