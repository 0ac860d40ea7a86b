import { Center, Loader, Stack, Text, Title } from '@mantine/core';
import { MSG } from '@stadiumcam/contract/lite';
import { useOnline } from '../../ui/online.ts';

/** While the session check runs; offline it waits for the network and says so. */
export function SplashScreen() {
  const online = useOnline();
  return (
    <Center h="100vh" data-testid="splash">
      <Stack align="center">
        <Title order={2}>StadiumCam</Title>
        <Loader />
        {!online && (
          <Text c="orange" role="status" data-testid="offline-banner">
            {MSG.common.offline}
          </Text>
        )}
      </Stack>
    </Center>
  );
}
