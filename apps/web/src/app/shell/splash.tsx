import { Center, Loader, Stack, Title } from '@mantine/core';

export function SplashScreen() {
  return (
    <Center h="100vh" data-testid="splash">
      <Stack align="center">
        <Title order={2}>StadiumCam</Title>
        <Loader />
      </Stack>
    </Center>
  );
}
