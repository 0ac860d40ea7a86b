import { Center, Stack, Text, Title } from '@mantine/core';

/** Stands in for a screen that a later issue builds. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <Center h="60vh">
      <Stack align="center" gap={4}>
        <Title order={3}>{title}</Title>
        <Text c="dimmed">This screen is not built yet.</Text>
      </Stack>
    </Center>
  );
}
