import { Anchor, Button, Center, Loader, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, Navigate, useNavigate } from 'react-router';
import { MSG } from '@stadiumcam/contract/lite';
import { showErrorModal } from '../../ui/feedback.tsx';
import { AuthCard } from './auth-card.tsx';
import { useLogin, useSession } from './session.hooks.ts';

export function LoginPage() {
  const { user, checked } = useSession();
  const login = useLogin();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { username: '', password: '' },
    validate: {
      username: (v) => (v.trim() ? null : MSG.auth.usernameRequired),
      password: (v) => (v ? null : MSG.auth.passwordRequired),
    },
  });
  if (!checked)
    return (
      <Center h="100vh" data-testid="splash">
        <Loader />
      </Center>
    );
  if (user) return <Navigate to="/" replace />;

  const handleSubmit = form.onSubmit((values) =>
    login.mutate(
      { username: values.username.trim(), password: values.password },
      {
        onSuccess: () => void navigate('/', { replace: true }),
        onError: () => showErrorModal(MSG.auth.loginFailed),
      },
    ),
  );

  return (
    <AuthCard title="Log in">
      <form onSubmit={handleSubmit} noValidate>
        <Stack>
          <TextInput
            label="Username"
            autoComplete="username"
            autoCapitalize="none"
            data-autofocus
            autoFocus
            {...form.getInputProps('username')}
          />
          <PasswordInput label="Password" autoComplete="current-password" {...form.getInputProps('password')} />
          <Anchor component={Link} to="/reset_password" size="sm">
            {MSG.auth.forgotPassword}
          </Anchor>
          <Button type="submit" loading={login.isPending} fullWidth>
            Login
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
