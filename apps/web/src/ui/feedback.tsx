import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { Text } from '@mantine/core';
import { MSG, SUCCESS_MODAL_MS } from '@stadiumcam/contract/lite';

/** The generic "Oops..." error modal (spec 1 §8); `text` overrides the generic sentence. */
export function showErrorModal(text: string = MSG.common.genericError, title: string = MSG.common.oopsTitle): string {
  return modals.open({
    title,
    centered: true,
    closeButtonProps: { 'aria-label': 'Close' },
    'data-testid': 'error-modal',
    children: <Text>{text}</Text>,
  } as Parameters<typeof modals.open>[0]);
}

/** The "Success" modal: closes itself after 1500 ms (5 s where the spec says so). */
export function showSuccessModal(text: string, opts: { title?: string; ms?: number } = {}): void {
  const id = modals.open({
    title: opts.title ?? MSG.common.successTitle,
    centered: true,
    closeButtonProps: { 'aria-label': 'Close' },
    children: <Text>{text}</Text>,
  });
  setTimeout(() => modals.close(id), opts.ms ?? SUCCESS_MODAL_MS);
}

/** Bottom-right toasts, 5 s, at most 3 visible (configured in providers). */
export function toast(message: string, opts: { color?: string; title?: string; autoClose?: number } = {}): void {
  notifications.show({ message, ...opts });
}

/** A confirmation modal; resolves true on confirm. */
export function confirm(opts: {
  title: string;
  text: string;
  confirmLabel?: string;
  danger?: boolean;
}): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: opts.title,
      centered: true,
      children: <Text size="sm">{opts.text}</Text>,
      labels: { confirm: opts.confirmLabel ?? 'Confirm', cancel: 'Cancel' },
      confirmProps: opts.danger ? { color: 'red' } : undefined,
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}
