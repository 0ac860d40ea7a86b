import { z } from 'zod';
import { defineRoute } from './route.ts';
import { P } from './permissions.ts';
import { PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from './constants.ts';
import { MSG } from './messages.ts';

export const UserSchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
});
export type User = z.infer<typeof UserSchema>;

/** Lower-case letters, digits and . _ - @; no spaces (spec 3 §5: at least 6 characters). */
export const UsernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(USERNAME_MIN_LENGTH, MSG.userNameRule)
  .max(USERNAME_MAX_LENGTH)
  .regex(/^[a-z0-9._@-]+$/, 'User name may only contain letters, digits and . _ - @ (no spaces).');

export const PasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must contain at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(200);

const RoleListSchema = z.array(z.string().min(1).max(100)).max(50);

export const UserCreateSchema = z.strictObject({
  username: UsernameSchema,
  email: z.email().max(320),
  password: PasswordSchema,
  roles: RoleListSchema,
});
export type UserCreate = z.infer<typeof UserCreateSchema>;

export const UserUpdateSchema = z.strictObject({
  _id: z.string(),
  email: z.email().max(320).optional(),
  /** Omitted (or empty, which the console drops) keeps the password. */
  password: PasswordSchema.optional(),
  roles: RoleListSchema.optional(),
});

export const usersRoutes = {
  list: defineRoute({ method: 'GET', path: '/api/users', permission: P.USERS, response: z.array(UserSchema) }),
  create: defineRoute({
    method: 'POST',
    path: '/api/users',
    permission: P.USERS,
    body: UserCreateSchema,
    response: UserSchema,
  }),
  update: defineRoute({
    method: 'POST',
    path: '/api/users/:id',
    permission: P.USERS,
    params: z.object({ id: z.string().max(100) }),
    body: UserUpdateSchema,
    response: UserSchema,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/users/:id',
    permission: P.USERS,
    params: z.object({ id: z.string().max(100) }),
    response: null,
  }),
  exists: defineRoute({
    method: 'GET',
    path: '/api/users/:username',
    permission: P.USERS,
    params: z.object({ username: z.string().max(200) }),
    response: z.object({ exists: z.boolean() }),
  }),
};
