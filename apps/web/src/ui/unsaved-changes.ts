import { useEffect } from 'react';
import { modals } from '@mantine/modals';
import { useBlocker } from 'react-router';

/** Spec-silent text (docs/album.md): what an operator reads before losing edits. */
export const UNSAVED_TITLE = 'Unsaved changes';
export const UNSAVED_TEXT = 'You have changes that are not saved. Leave this page and lose them?';

/**
 * Asks before leaving a screen with unsaved edits: a route change inside the console gets a
 * confirmation modal, closing or reloading the tab the browser's own prompt.
 */
export function useUnsavedChangesPrompt(dirty: boolean): void {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    // The modal calls onClose after onConfirm/onCancel too: a reset there would cancel Leave.
    let decided = false;
    modals.openConfirmModal({
      title: UNSAVED_TITLE,
      children: UNSAVED_TEXT,
      labels: { confirm: 'Leave', cancel: 'Stay' },
      confirmProps: { color: 'red', 'data-testid': 'unsaved-leave' } as Record<string, string>,
      onConfirm: () => {
        decided = true;
        blocker.proceed();
      },
      onCancel: () => {
        decided = true;
        blocker.reset();
      },
      onClose: () => {
        if (!decided) blocker.reset();
      },
    });
  }, [blocker]);

  useEffect(() => {
    if (!dirty) return;
    const handle = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', handle);
    return () => window.removeEventListener('beforeunload', handle);
  }, [dirty]);
}
