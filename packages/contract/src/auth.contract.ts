import { z } from 'zod';
import { defineRoute, OkSchema } from './route.ts';
import { LOGIN_WINDOW_MS, PASSWORD_MIN_LENGTH } from './constants.ts';

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

/** The username is compared lower-cased and trimmed (spec 1 §3, §5). */
export const LoginBodySchema = z.strictObject({
  username: z.string({ error: 'Username is required' }).trim().toLowerCase().min(1, 'Username is required').max(200),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1000),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

/** Reset tokens are random base64url strings; anything else cannot be one. */
export const ResetTokenSchema = z
  .string()
  .min(1, 'The password reset link is incomplete.')
  .max(200)
  .regex(/^[\w-]+$/, 'This password reset link is not valid.');

/** Reset requests counted per client address and per e-mail address within the window. */
export const RESET_MAX_REQUESTS = 5;
export const RESET_WINDOW_MS = LOGIN_WINDOW_MS;

export const authRoutes = {
  session: defineRoute({
    method: 'GET',
    path: '/api/users/user',
    permission: 'session',
    response: SessionUserSchema,
  }),
  /**
   * The console's session check (issue 28 point 7): 200 with `user: null` when nobody is logged
   * in, so the login page's check is not a 401 that browsers log as an error. GET users/user
   * (spec 1 §7) stays as it is for other clients.
   */
  sessionProbe: defineRoute({
    method: 'GET',
    path: '/api/users/session',
    public: true,
    response: z.object({ user: SessionUserSchema.nullable() }),
  }),
  login: defineRoute({
    method: 'POST',
    audit: 'auth.login',
    path: '/api/users/login',
    public: true,
    body: LoginBodySchema,
    response: SessionUserSchema,
  }),
  logout: defineRoute({
    method: 'POST',
    audit: 'auth.logout',
    path: '/api/users/logout',
    public: true,
    response: null,
  }),
  resetRequest: defineRoute({
    method: 'POST',
    path: '/api/users/resetPasswordEmail',
    public: true,
    body: z.strictObject({ email: z.email('Please enter a valid e-mail address.').max(320) }),
    response: OkSchema,
  }),
  resetConfirm: defineRoute({
    method: 'POST',
    audit: 'auth.passwordReset',
    path: '/api/users/resetPassword',
    public: true,
    body: z.strictObject({ token: ResetTokenSchema }),
    response: OkSchema,
  }),
};

export { PASSWORD_MIN_LENGTH };
