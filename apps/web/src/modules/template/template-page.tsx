import { useState, type ReactNode, type SyntheticEvent } from 'react';
import { Box, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { MSG } from '@stadiumcam/contract';
import { useUnsavedChangesPrompt } from '../../ui/unsaved-changes.ts';
import { EventSelector } from '../events/event-selector.tsx';
import { usePartSavedCount } from './template.hooks.ts';

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
  const edited = useEditTracker();
  return (
    <Stack gap="md" p="md" data-testid="template-page">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="md">
          <Title order={3}>{title}</Title>
          <EventSelector multiple allowTemplate allowFuture />
        </Group>
        <Group gap="xs" {...edited.handlers}>
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
        <Box {...edited.handlers}>{children}</Box>
      )}
    </Stack>
  );
}

/** What an operator's edit looks like from outside a form: typing, a changed box, a picked option. */
const PICKS = '[role="option"], [class*="ColorPicker"], [class*="ColorInput-colorPreview"]';

/**
 * The unsaved-changes prompt for every template screen (issue 10 point 6): the form is dirty
 * from the operator's first edit in it (the screen and its own buttons, not the event selector)
 * until a part is saved. A changed stored value remounts the screen's form (useTemplatePart's
 * key) and this frame with it, which starts clean too.
 */
function useEditTracker() {
  const saved = usePartSavedCount();
  // The save count at the last edit: a later save leaves the form clean.
  const [editedAt, setEditedAt] = useState<number | null>(null);
  useUnsavedChangesPrompt(editedAt === saved);
  const mark = () => setEditedAt(saved);
  const pick = (e: SyntheticEvent) => {
    if ((e.target as Element).closest?.(PICKS)) mark();
  };
  return { handlers: { onInputCapture: mark, onChangeCapture: mark, onClickCapture: pick, onPointerUpCapture: pick } };
}
