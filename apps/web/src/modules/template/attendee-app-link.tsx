import { useEffect, useState } from 'react';
import { ActionIcon, Anchor, CopyButton, Button, Group, Image, Popover, Stack, Text, Tooltip } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import QRCode from 'qrcode';
import { useCurrentEvent } from '../events/events.hooks.ts';

/**
 * The QR code and link fans open (DESIGN §10). `/app/` always shows the current event, so a
 * printed code keeps working game after game; the popover says which event that is now.
 */
export function AttendeeAppLink() {
  const current = useCurrentEvent();
  const url = `${location.origin}/app/`;
  const [qr, setQr] = useState<string | null>(null);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    if (!opened || qr) return;
    void QRCode.toDataURL(url, { margin: 1, width: 240 }).then(setQr);
  }, [opened, qr, url]);
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" withArrow shadow="md">
      <Popover.Target>
        <Tooltip label="Attendee app">
          <ActionIcon variant="subtle" aria-label="Attendee app" onClick={() => setOpened((o) => !o)}>
            <IconQrcode size={18} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown data-testid="attendee-app-link">
        <Stack gap="xs" align="center" w={260}>
          <Text size="sm" fw={600}>
            Attendee app
          </Text>
          {qr ? <Image src={qr} w={200} h={200} alt="QR code of the attendee app" /> : <div style={{ height: 200 }} />}
          <Anchor href={url} target="_blank" size="sm">
            {url}
          </Anchor>
          <Text size="xs" c="dimmed" ta="center">
            Now showing: {current.data?.title ?? '…'}
          </Text>
          <Group gap="xs">
            <CopyButton value={url}>
              {({ copied, copy }) => (
                <Button size="xs" variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
            {qr && (
              <Button size="xs" variant="default" component="a" href={qr} download="stadiumcam-app-qr.png">
                Download QR
              </Button>
            )}
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
