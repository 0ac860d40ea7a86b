import { useId, useState, type ReactNode } from 'react';
import { NavLink, ScrollArea } from '@mantine/core';
import {
  IconAdjustments,
  IconCalendar,
  IconChartBar,
  IconDeviceCctv,
  IconMap,
  IconPhoto,
  IconTemplate,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { P, can, type Permission } from '@stadiumcam/contract/lite';
import { useSession } from '../../modules/auth/session.hooks.ts';
import { TEMPLATE_PAGES } from '../routes.ts';

type Entry = { label: string; to: string; needs?: Permission[]; or?: boolean };

/** Side menu of spec 1 §2: each entry gated like its route. */
export function SideMenu() {
  const { permissions } = useSession();
  const { pathname } = useLocation();
  const allowed = (e: { needs?: Permission[]; or?: boolean }) => can(permissions, e.needs ?? [], { or: e.or });
  const link = (e: Entry, icon?: ReactNode) =>
    allowed(e) ? (
      <NavLink
        key={e.to}
        component={Link}
        to={e.to}
        label={e.label}
        leftSection={icon}
        active={e.to === '/' ? pathname === '/' : pathname.startsWith(e.to)}
      />
    ) : null;

  const admin: Entry[] = [
    { label: 'Users', to: '/admin/users', needs: [P.USERS] },
    { label: 'Roles', to: '/admin/roles', needs: [P.ROLES_READ] },
    { label: 'Audit log', to: '/admin/audit', needs: [P.AUDIT_READ] },
  ];
  const template = TEMPLATE_PAGES.map((t) => ({ label: t.label, to: `/${t.path}`, needs: t.needs, or: t.or }));
  const config: Entry[] = [
    { label: 'Camera', to: '/config/camera', needs: [P.CONFIG] },
    { label: 'Mapping', to: '/config/mapping', needs: [P.CONFIG] },
  ];
  const group = (label: string, icon: ReactNode, entries: Entry[], prefix: string) => {
    const visible = entries.filter(allowed);
    if (!visible.length) return null;
    return (
      <MenuGroup label={label} icon={icon} opened={pathname.startsWith(prefix)}>
        {visible.map((e) => link(e))}
      </MenuGroup>
    );
  };

  return (
    <ScrollArea type="auto" data-testid="side-menu">
      {link({ label: 'Calendar', to: '/' }, <IconCalendar size={18} />)}
      {link({ label: 'Monitor', to: '/monitor', needs: [P.MONITOR_READ] }, <IconDeviceCctv size={18} />)}
      {link({ label: 'Album', to: '/album' }, <IconPhoto size={18} />)}
      {group('Admin', <IconUsers size={18} />, admin, '/admin')}
      {link({ label: 'Analytics', to: '/analytics', needs: [P.ANALYTICS_READ] }, <IconChartBar size={18} />)}
      {group('Template', <IconTemplate size={18} />, template, '/template')}
      {link({ label: 'Event Users', to: '/eventUsers', needs: [P.EVENT_USERS_READ] }, <IconUsersGroup size={18} />)}
      {group('Config', <IconAdjustments size={18} />, config, '/config')}
      {link({ label: 'Mapping', to: '/mapping', needs: [P.CONFIG] }, <IconMap size={18} />)}
    </ScrollArea>
  );
}

/**
 * A group of the menu (Admin, Template, Config): a button that opens and closes its entries, so
 * the keyboard reaches it (Mantine's NavLink is a link without an href, which Tab skips).
 */
function MenuGroup({
  label,
  icon,
  opened,
  children,
}: {
  label: string;
  icon: ReactNode;
  opened: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(opened);
  const id = useId();
  return (
    <NavLink
      component="button"
      type="button"
      label={label}
      leftSection={icon}
      opened={open}
      onChange={setOpen}
      aria-expanded={open}
      aria-controls={id}
      childrenOffset={28}
      w="100%"
    >
      <div id={id}>{children}</div>
    </NavLink>
  );
}
