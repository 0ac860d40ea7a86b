import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rolesRoutes, type Permission, type Role } from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';
import { SESSION_KEY } from '../auth/session.hooks.ts';

export const ROLES_KEY = ['roles'] as const;

/** GET /roles: the Role Editor's list and the Users page's role choices. */
export function useRoles() {
  return useQuery({ queryKey: ROLES_KEY, queryFn: () => api(rolesRoutes.list) });
}

export function useSaveRole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string; permissions: Permission[]; isNew: boolean }) =>
      api(rolesRoutes.save, { params: { name: v.name }, body: { permissions: v.permissions, isNew: v.isNew } }),
    onSuccess: (saved) => {
      // Show the saved role at once; the refetch only confirms it.
      qc.setQueryData<Role[]>(ROLES_KEY, (old) =>
        old?.some((r) => r.name === saved.name)
          ? old.map((r) => (r.name === saved.name ? saved : r))
          : [...(old ?? []), saved],
      );
      // The operator's own roles may have changed: refresh the session's permissions too.
      return Promise.all([
        qc.invalidateQueries({ queryKey: ROLES_KEY }),
        qc.invalidateQueries({ queryKey: SESSION_KEY }),
      ]);
    },
  });
}

export function useDeleteRole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api(rolesRoutes.remove, { params: { name } }),
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ROLES_KEY }), qc.invalidateQueries({ queryKey: SESSION_KEY })]),
  });
}
