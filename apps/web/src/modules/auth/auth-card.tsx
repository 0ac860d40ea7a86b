import type { ReactNode } from 'react';
import { Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';

/** The centred card the login and password-reset screens share. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="md" radius="md" p="xl" w={380} maw="100%">
        <Stack gap="lg">
          <Group gap="xs" justify="center" wrap="nowrap">
            <ThemeIcon variant="light" size="lg" radius="md">
              <IconCamera size={20} />
            </ThemeIcon>
            <Text fw={700} size="lg">
              StadiumCam
            </Text>
          </Group>
          <Title order={3} ta="center">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
