import { useMutation } from '@tanstack/react-query';
import { authRoutes } from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';

/** POST users/resetPasswordEmail: mails a reset link to the account with this address. */
export function useResetRequest() {
  return useMutation({ mutationFn: (email: string) => api(authRoutes.resetRequest, { body: { email } }) });
}

/** POST users/resetPassword: the token from the mail; the server mails the new password. */
export function useResetConfirm() {
  return useMutation({ mutationFn: (token: string) => api(authRoutes.resetConfirm, { body: { token } }) });
}
