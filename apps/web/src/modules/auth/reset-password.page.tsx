import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { MSG } from '@stadiumcam/contract';
import { errorText } from '../../ui/api.ts';
import { showErrorModal } from '../../ui/feedback.tsx';
import { AuthCard } from './auth-card.tsx';
import { useResetConfirm, useResetRequest } from './password-reset.hooks.ts';

/** /reset_password asks for the e-mail; /reset_password/:token confirms the reset (spec 1 §2). */
export function ResetPasswordPage() {
  const { token } = useParams();
  return token ? <ResetConfirm token={token} /> : <ResetRequest />;
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function BackToLogin() {
  return (
    <Anchor component={Link} to="/login" size="sm" ta="center">
      Back to Login
    </Anchor>
  );
}

function Done({ text }: { text: string }) {
  return (
    <Alert color="teal" variant="light" icon={<IconCircleCheck />} data-testid="reset-done">
      {text}
    </Alert>
  );
}

function ResetRequest() {
  const request = useResetRequest();
  const form = useForm({
    initialValues: { email: '' },
    validate: {
      email: (v) => (!v.trim() ? 'E-mail is required' : EMAIL_RE.test(v.trim()) ? null : 'Invalid e-mail address'),
    },
  });

  const handleSubmit = form.onSubmit(({ email }) =>
    request.mutate(email.trim(), {
      onError: (err) => {
        form.setFieldError('email', errorText(err, MSG.auth.resetRequestFailed));
        showErrorModal(MSG.auth.resetRequestFailed);
      },
    }),
  );

  return (
    <AuthCard title="Reset password">
      {request.isSuccess ? (
        <Stack>
          <Done text={MSG.auth.resetRequestSent} />
          <BackToLogin />
        </Stack>
      ) : (
        <form onSubmit={handleSubmit} noValidate>
          <Stack>
            <Text size="sm" c="dimmed">
              Enter the e-mail address of your account. We will send you a link to reset your password.
            </Text>
            <TextInput
              label="E-mail"
              type="email"
              required
              autoComplete="email"
              autoFocus
              {...form.getInputProps('email')}
            />
            <Button type="submit" loading={request.isPending} fullWidth>
              Send
            </Button>
            <BackToLogin />
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

function ResetConfirm({ token }: { token: string }) {
  const confirmReset = useResetConfirm();
  const handleReset = () =>
    confirmReset.mutate(token, { onError: (err) => showErrorModal(errorText(err, MSG.common.genericError)) });

  return (
    <AuthCard title={MSG.auth.resetConfirmTitle}>
      {confirmReset.isSuccess ? (
        <Done text={MSG.auth.resetConfirmed} />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            Press Reset and a new password will be sent to the e-mail address of your account.
          </Text>
          <Button onClick={handleReset} loading={confirmReset.isPending} fullWidth>
            Reset
          </Button>
        </>
      )}
      <BackToLogin />
    </AuthCard>
  );
}
