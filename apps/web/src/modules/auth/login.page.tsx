import { Anchor, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, Navigate, useNavigate } from 'react-router';
import { MSG } from '@stadiumcam/contract';
import { showErrorModal } from '../../ui/feedback.tsx';
import { useLogin, useSession } from './session.hooks.ts';

export function LoginPage() {
  const { user } = useSession();
  const login = useLogin();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { username: '', password: '' },
    validate: {
      username: (v) => (v.trim() ? null : MSG.usernameRequired),
      password: (v) => (v ? null : MSG.passwordRequired),
    },
  });
  if (user) return <Navigate to="/" replace />;

  const handleSubmit = form.onSubmit((values) =>
    login.mutate(values, {
      onSuccess: () => void navigate('/', { replace: true }),
      onError: () => showErrorModal(MSG.loginFailed),
    }),
  );

  return (
    <Center h="100vh">
      <Paper withBorder shadow="md" p="xl" w={380}>
        <form onSubmit={handleSubmit} noValidate>
          <Stack>
            <Title order={2} ta="center">
              StadiumCam
            </Title>
            <TextInput label="Username" autoComplete="username" {...form.getInputProps('username')} />
            <PasswordInput label="Password" autoComplete="current-password" {...form.getInputProps('password')} />
            <Anchor component={Link} to="/reset_password" size="sm">
              Forgot password?
            </Anchor>
            <Button type="submit" loading={login.isPending}>
              Login
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
