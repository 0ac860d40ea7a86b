import type { ReactNode } from 'react';
import { Box, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { MSG } from '@stadiumcam/contract';
import { EventSelector } from '../events/event-selector.tsx';

type Props = {
  title: string;
  /** The screen's own buttons, left of 'Update Event'. */
  actions?: ReactNode;
  onUpdate?: () => void;
  saving?: boolean;
  /** Part value not loaded yet / failed. */
  loading?: boolean;
  failed?: boolean;
  children: ReactNode;
};

/**
 * The frame every template screen shares: title, the event selector (several events or the
 * master template), the screen's actions and 'Update Event' with its spinner.
 */
export function TemplatePage({ title, actions, onUpdate, saving, loading, failed, children }: Props) {
  return (
    <Stack gap="md" p="md" data-testid="template-page">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="md">
          <Title order={3}>{title}</Title>
          <EventSelector multiple allowTemplate allowFuture />
        </Group>
        <Group gap="xs">
          {actions}
          {onUpdate && (
            <Button
              leftSection={<IconDeviceFloppy size={16} />}
              onClick={onUpdate}
              loading={saving}
              disabled={loading || failed}
              data-testid="update-event"
            >
              Update Event
            </Button>
          )}
        </Group>
      </Group>
      {loading ? (
        <Center h={200}>
          <Loader />
        </Center>
      ) : failed ? (
        <Center h={200}>
          <Text c="red">{MSG.common.genericError}</Text>
        </Center>
      ) : (
        <Box>{children}</Box>
      )}
    </Stack>
  );
}
