import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconCameraOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { MSG } from '@stadiumcam/contract';

/** Fallback for unknown routes (spec 3 §2.10). */
export function NotFoundPage() {
  return (
    <Center h="70vh">
      <Stack align="center" gap="md">
        <IconCameraOff size={96} stroke={1.2} role="img" aria-label={MSG.common.notFoundImage} />
        <Title order={2}>{MSG.common.notFoundImage}</Title>
        <Text>{MSG.common.notFound}</Text>
        <Button component={Link} to="/">
          {MSG.common.returnHome}
        </Button>
      </Stack>
    </Center>
  );
}
