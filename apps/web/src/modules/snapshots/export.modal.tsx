import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Code, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconCheck, IconLock } from '@tabler/icons-react';
import { buildPath, snapshotsRoutes } from '@stadiumcam/contract';
import { errorText } from '../../ui/api.ts';
import { CopyLinkButton } from './copy-link-button.tsx';
import { downloadWithProgress } from './download.ts';

export type ExportRequest = { password: string; slugDate?: string[]; id?: string[] };

/**
 * The encrypted export (spec 1 §7): the random password is shown before and while the
 * archive downloads, because the archive cannot be opened without it.
 */
export function ExportModal({ request, onClose }: { request: ExportRequest | null; onClose: () => void }) {
  const [state, setState] = useState<{
    for: ExportRequest | null;
    status: 'running' | 'done' | 'failed';
    error?: string;
  }>({
    for: null,
    status: 'running',
  });
  const started = useRef<ExportRequest | null>(null);

  useEffect(() => {
    if (!request || started.current === request) return;
    started.current = request;
    // The password travels in the body, never in a URL that logs and history keep.
    downloadWithProgress(buildPath(snapshotsRoutes.export.path), 'photos-export.zip', 'Exporting photos', {
      method: snapshotsRoutes.export.method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    })
      .then(() => setState({ for: request, status: 'done' }))
      .catch((err: unknown) =>
        setState({ for: request, status: 'failed', error: errorText(err, 'The export failed. Please try again.') }),
      );
  }, [request]);

  const status = state.for === request ? state.status : 'running';
  return (
    <Modal opened={!!request} onClose={onClose} title="Export photos" centered closeOnClickOutside={false}>
      {request && (
        <Stack gap="sm">
          <Text size="sm">
            The archive is encrypted (AES-256). Keep this password: the archive opens only with it (for example with
            7-Zip).
          </Text>
          <Group gap="xs">
            <IconLock size={18} />
            <Code fz="lg" data-testid="export-password">
              {request.password}
            </Code>
            <CopyLinkButton value={request.password} label="Copy password" />
          </Group>
          {status === 'running' && (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm" c="dimmed">
                Preparing the archive…
              </Text>
            </Group>
          )}
          {status === 'done' && (
            <Group gap="xs" c="teal">
              <IconCheck size={16} />
              <Text size="sm">The archive is downloaded.</Text>
            </Group>
          )}
          {status === 'failed' && (
            <Alert color="red" p="xs">
              {state.error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
