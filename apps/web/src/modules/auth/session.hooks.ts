import { useEffect, useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  P,
  authRoutes,
  can,
  rolesRoutes,
  effectivePermissions,
  isPermission,
  type Permission,
  type SessionUser,
} from '@stadiumcam/contract/lite';
import { api } from '../../ui/api.ts';
import { closeConsoleSocket } from '../../ui/socket.ts';

export const SESSION_KEY = ['session'] as const;

/**
 * A permission this console does not know (a newer server, a hand-edited role) only warns in
 * the console (spec 1 §6): it grants nothing here, and the server decides anyway.
 */
function warnUnknown(user: SessionUser | null): void {
  for (const name of user?.permissions ?? []) if (!isPermission(name)) console.warn('Unknown permission', name);
}

/**
 * The session check (GET users/session, the quiet form of spec 1 §7's users/user); a failure is
 * logged and means logged out.
 */
export function useSession() {
  const query = useQuery({
    queryKey: SESSION_KEY,
    queryFn: async (): Promise<SessionUser | null> => {
      try {
        // users/session answers 200 with no user when logged out: no 401 in the browser's console.
        const { user } = await api(authRoutes.sessionProbe);
        warnUnknown(user);
        return user;
      } catch (err) {
        console.warn('session check failed', err);
        return null;
      }
    },
    staleTime: Infinity,
    retry: false,
  });
  const user = query.data ?? null;
  const permissions = useMemo(() => effectivePermissions(user?.permissions ?? []), [user]);
  return { user, permissions, checked: !query.isPending };
}

/**
 * The roles list, fetched after login (spec 1 §6) by a user who may read it: a role of the user's
 * that the list does not hold, or a permission of a role this console does not know, only warns.
 * Without Roles:read or Users the session's own answer has the user's roles resolved.
 */
export function useRolesAfterLogin(): void {
  const { user, permissions } = useSession();
  const allowed = user !== null && can(permissions, [P.ROLES_READ, P.USERS], { or: true });
  const roles = useQuery({ queryKey: ['roles'], queryFn: () => api(rolesRoutes.list), enabled: allowed });
  useEffect(() => {
    if (!user || !roles.data) return;
    const known = new Set(roles.data.map((r) => r.name));
    for (const name of user.roles) if (!known.has(name)) console.warn('Unknown role', name);
    for (const role of roles.data)
      for (const name of role.permissions)
        if (!isPermission(name)) console.warn('Unknown permission', name, 'in role', role.name);
  }, [user, roles.data]);
}

/** The console's gate: the same `can` the server's guards use. */
export function useCan(required: Permission | Permission[], opts: { or?: boolean } = {}): boolean {
  const { permissions } = useSession();
  return can(permissions, required, opts);
}

export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { username: string; password: string }) =>
      api(authRoutes.login, { body: { ...body, username: body.username.toLowerCase() } }),
    onSuccess: (user) => {
      warnUnknown(user);
      qc.setQueryData(SESSION_KEY, user);
    },
  });
}

export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api(authRoutes.logout),
    onSettled: () => {
      closeConsoleSocket();
      qc.clear();
      qc.setQueryData(SESSION_KEY, null);
    },
  });
}
