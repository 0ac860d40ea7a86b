import { z } from 'zod';
import { defineRoute } from './route.ts';
import { P } from './permissions.ts';
import { PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from './constants.ts';
import { MSG } from './messages.ts';

/** The user `npm start` creates; it cannot be deleted and keeps the admin role. */
export const ADMIN_USERNAME = 'admin';

export const UserSchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
});
export type User = z.infer<typeof UserSchema>;

/** Required, at least 6 characters, lower-cased, no spaces (spec 3 §5). */
export const UsernameSchema = z
  .string({ error: MSG.users.userNameRule })
  .trim()
  .toLowerCase()
  .min(USERNAME_MIN_LENGTH, MSG.users.userNameRule)
  .max(USERNAME_MAX_LENGTH, `User name must contain at most ${USERNAME_MAX_LENGTH} characters.`)
  .regex(/^[a-z0-9._@-]+$/, MSG.users.usernameChars);

export const PasswordSchema = z
  .string({ error: MSG.users.passwordRule })
  .min(PASSWORD_MIN_LENGTH, MSG.users.passwordRule)
  .max(200, 'Password must contain at most 200 characters.');

const EmailSchema = z.email(MSG.users.emailRequired).max(320);
const RoleListSchema = z.array(z.string().min(1).max(100)).max(50);

export const UserCreateSchema = z.strictObject({
  username: UsernameSchema,
  email: EmailSchema,
  password: PasswordSchema,
  roles: RoleListSchema,
});
export type UserCreate = z.infer<typeof UserCreateSchema>;

export const UserUpdateSchema = z.strictObject({
  _id: z.string().max(100),
  /** Read-only on update: accepted only when it is the user's current name. */
  username: z.string().max(200).optional(),
  email: EmailSchema.optional(),
  /** Omitted or empty keeps the password. */
  password: z.union([z.literal(''), PasswordSchema]).optional(),
  roles: RoleListSchema.optional(),
});
export type UserUpdate = z.infer<typeof UserUpdateSchema>;

export const usersRoutes = {
  list: defineRoute({ method: 'GET', path: '/api/users', permission: P.USERS, response: z.array(UserSchema) }),
  create: defineRoute({
    method: 'POST',
    audit: 'user.create',
    path: '/api/users',
    permission: P.USERS,
    body: UserCreateSchema,
    response: UserSchema,
  }),
  update: defineRoute({
    method: 'POST',
    audit: 'user.update',
    path: '/api/users/:id',
    permission: P.USERS,
    params: z.object({ id: z.string().max(100) }),
    body: UserUpdateSchema,
    response: UserSchema,
  }),
  remove: defineRoute({
    method: 'DELETE',
    audit: 'user.delete',
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
