import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Group, Loader, Modal, Stack, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { MSG, checklistRoutes, type CheckState } from '@stadiumcam/contract';
import { api, errorText } from '../../ui/api.ts';
import { useSetEventStatus } from './events.hooks.ts';

/** The event about to go live: what the dialog needs of it. */
export type GoLiveTarget = { slugDate: string; title: string };

const STATE: Record<CheckState, { icon: typeof IconCircleCheck; color: string; text: string }> = {
  pass: { icon: IconCircleCheck, color: 'teal', text: MSG.checklist.statePass },
  warn: { icon: IconAlertTriangle, color: 'orange', text: MSG.checklist.stateWarn },
  fail: { icon: IconCircleX, color: 'red', text: MSG.checklist.stateFail },
};

/**
 * The pre-live checklist (issue 32 §2): every way of switching an event to live (power menu,
 * monitor, calendar) opens this first. It shows the server's checklist; 'Go live' when nothing
 * fails, else 'Go live anyway…', which asks once more. A checklist that cannot be read (no
 * Event:write, a broken connection) counts as failing: the operator may still go live.
 */
export function GoLiveModal({ target, onClose }: { target: GoLiveTarget | null; onClose: () => void }) {
  if (!target) return null;
  return <GoLiveDialog key={target.slugDate} target={target} onClose={onClose} />;
}

function GoLiveDialog({ target, onClose }: { target: GoLiveTarget; onClose: () => void }) {
  const setStatus = useSetEventStatus();
  const [confirming, setConfirming] = useState(false);
  // The question replaces the button that asked it: focus moves to its answer, not to the page.
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  const checklist = useQuery({
    queryKey: ['checklist', target.slugDate],
    queryFn: () => api(checklistRoutes.get, { params: { slugDate: target.slugDate } }),
    // Always the venue as it is now: never a cached answer.
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
  const items = checklist.data?.items ?? [];
  const failing = items.filter((i) => i.state === 'fail').length;
  const blocked = checklist.isError || failing > 0;

  const goLive = () => {
    onClose();
    setStatus.mutate({ slugDate: target.slugDate, eventStatus: 'live' });
  };

  return (
    <Modal opened onClose={onClose} title={MSG.checklist.title} centered size="lg" data-testid="go-live-modal">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {MSG.checklist.intro(target.title)}
        </Text>
        {checklist.isPending && (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">{MSG.checklist.checking}</Text>
          </Group>
        )}
        {checklist.isError && (
          <Alert color="red" role="alert" data-testid="checklist-error">
            {errorText(checklist.error, MSG.checklist.loadFailed)}
          </Alert>
        )}
        {items.length > 0 && (
          <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={MSG.checklist.title}>
            {items.map((i) => {
              const s = STATE[i.state];
              return (
                <Group
                  component="li"
                  key={i.key}
                  wrap="nowrap"
                  align="flex-start"
                  gap="sm"
                  data-testid="checklist-item"
                  data-key={i.key}
                  data-state={i.state}
                >
                  <ThemeIcon variant="light" color={s.color} size="md" radius="xl" aria-hidden>
                    <s.icon size={16} />
                  </ThemeIcon>
                  <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                    <Text size="sm" fw={600}>
                      {i.label} <VisuallyHidden>{`(${s.text})`}</VisuallyHidden>
                    </Text>
                    <Text size="sm" c={i.state === 'pass' ? 'dimmed' : undefined} data-testid="checklist-reason">
                      {i.reason}
                    </Text>
                  </Stack>
                  {i.state !== 'pass' && (
                    <Anchor
                      component={Link}
                      to={i.link}
                      size="sm"
                      onClick={onClose}
                      aria-label={`${MSG.checklist.fix} ${i.label}`}
                      data-testid="checklist-link"
                    >
                      {MSG.checklist.fix}
                    </Anchor>
                  )}
                </Group>
              );
            })}
          </Stack>
        )}
        {confirming ? (
          <Alert color="red" variant="light" data-testid="go-live-confirm">
            <Text size="sm" mb="sm">
              {checklist.isError ? MSG.checklist.confirmUnchecked : MSG.checklist.confirmAnyway(failing)}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)}>
                {MSG.checklist.back}
              </Button>
              <Button color="red" onClick={goLive} ref={confirmRef}>
                {MSG.checklist.confirmGoLive}
              </Button>
            </Group>
          </Alert>
        ) : (
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={onClose}>
              {MSG.checklist.cancel}
            </Button>
            {blocked ? (
              <Button color="red" variant="outline" onClick={() => setConfirming(true)}>
                {MSG.checklist.goLiveAnyway}
              </Button>
            ) : (
              <Button onClick={goLive} disabled={checklist.isPending}>
                {MSG.checklist.goLive}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
