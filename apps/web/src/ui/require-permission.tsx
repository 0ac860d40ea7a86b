import type { ReactNode } from 'react';
import { Center, Text } from '@mantine/core';
import { MSG } from '@stadiumcam/contract/lite';

/** Centred "Insufficient permissions" in place of a page the user may not open. */
export function RequirePermission({ allowed, children }: { allowed: boolean; children: ReactNode }) {
  if (allowed) return <>{children}</>;
  return (
    <Center h="60vh">
      <Text size="lg" fw={500} data-testid="insufficient-permissions">
        {MSG.common.insufficientPermissions}
      </Text>
    </Center>
  );
}
