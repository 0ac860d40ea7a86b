import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { usersRoutes, type RouteInput } from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';

export const USERS_KEY = ['users'] as const;

export function useUsers() {
  return useQuery({ queryKey: USERS_KEY, queryFn: () => api(usersRoutes.list) });
}

/** GET /users/{username}: whether the name is taken; always asks the server afresh. */
export function useUsernameTaken() {
  const qc = useQueryClient();
  return useCallback(
    async (username: string) => {
      const { exists } = await qc.fetchQuery({
        queryKey: [...USERS_KEY, 'exists', username],
        queryFn: () => api(usersRoutes.exists, { params: { username } }),
        staleTime: 0,
      });
      return exists;
    },
    [qc],
  );
}

export function useCreateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RouteInput<typeof usersRoutes.create>['body']) => api(usersRoutes.create, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: USERS_KEY }),
  });
}

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RouteInput<typeof usersRoutes.update>['body']) =>
      api(usersRoutes.update, { params: { id: body._id }, body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: USERS_KEY }),
  });
}

export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(usersRoutes.remove, { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: USERS_KEY }),
  });
}
