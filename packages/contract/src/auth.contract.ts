import { z } from 'zod';
import { defineRoute, OkSchema } from './route.ts';
import { PASSWORD_MIN_LENGTH } from './constants.ts';

export const SessionUserSchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  /** Effective permissions: what the roles hold plus every ancestor. */
  permissions: z.array(z.string()),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const LoginBodySchema = z.strictObject({
  username: z.string().trim().min(1, 'Username is required').max(200),
  password: z.string().min(1, 'Password is required').max(1000),
});

export const authRoutes = {
  session: defineRoute({
    method: 'GET',
    path: '/api/users/user',
    permission: 'session',
    response: SessionUserSchema,
  }),
  login: defineRoute({
    method: 'POST',
    path: '/api/users/login',
    public: true,
    body: LoginBodySchema,
    response: SessionUserSchema,
  }),
  logout: defineRoute({ method: 'POST', path: '/api/users/logout', public: true, response: null }),
  resetRequest: defineRoute({
    method: 'POST',
    path: '/api/users/resetPasswordEmail',
    public: true,
    body: z.strictObject({ email: z.email().max(320) }),
    response: OkSchema,
  }),
  resetConfirm: defineRoute({
    method: 'POST',
    path: '/api/users/resetPassword',
    public: true,
    body: z.strictObject({ token: z.string().min(1).max(200) }),
    response: OkSchema,
  }),
};

export { PASSWORD_MIN_LENGTH };
