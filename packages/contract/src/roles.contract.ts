import { z } from 'zod';
import { defineRoute } from './route.ts';
import { P, isPermission } from './permissions.ts';
import { MSG } from './messages.ts';

export const RoleSchema = z.object({
  name: z.string(),
  permissions: z.array(z.string()),
  readonly: z.boolean(),
});
export type Role = z.infer<typeof RoleSchema>;

export const RoleNameSchema = z
  .string()
  .trim()
  .min(1, 'Role name is required')
  .max(50, 'Role name must contain at most 50 characters.')
  .regex(/^[\w .-]+$/, 'Role name may only contain letters, digits, spaces and . _ -');

export const RoleSaveSchema = z.strictObject({
  permissions: z
    .array(
      z
        .string()
        .max(100)
        .refine(isPermission, { error: (issue) => MSG.roles.unknownPermission(String(issue.input)) }),
    )
    .max(200),
  /** true from "Add new role": an existing name is then a conflict, not an update. */
  isNew: z.boolean().optional(),
});
export type RoleSave = z.infer<typeof RoleSaveSchema>;

export const rolesRoutes = {
  // The Users page needs the role names to assign them, so Users may read them too.
  list: defineRoute({
    method: 'GET',
    path: '/api/roles',
    permission: [P.ROLES_READ, P.USERS],
    or: true,
    response: z.array(RoleSchema),
  }),
  save: defineRoute({
    method: 'POST',
    audit: 'role.save',
    path: '/api/roles/:name',
    permission: P.ROLES_WRITE,
    params: z.object({ name: RoleNameSchema }),
    body: RoleSaveSchema,
    response: RoleSchema,
  }),
  remove: defineRoute({
    method: 'DELETE',
    audit: 'role.delete',
    path: '/api/roles/:name',
    permission: P.ROLES_WRITE,
    params: z.object({ name: z.string().max(100) }),
    response: null,
  }),
};
