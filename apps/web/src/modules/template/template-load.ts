import { useEffect } from 'react';
import { modals } from '@mantine/modals';
import { useNavigate } from 'react-router';
import { MSG } from '@stadiumcam/contract';
import { ApiError } from '../../ui/api.ts';

/**
 * What a template screen does when its event does not load (spec 1 §8): a 404 of the master
 * template says "Template event doesn't exist" / "Please notify the support team." and goes to
 * /login; any other failure says "Something went wrong" / "Please click OK to load template
 * again" and loads it again after OK.
 */
export function useTemplateLoadErrors(query: { error: Error | null; refetch: () => unknown }, template: boolean) {
  const navigate = useNavigate();
  const { error, refetch } = query;
  useEffect(() => {
    if (!error) return;
    const missing = error instanceof ApiError && error.status === 404 && template;
    const id = modals.openConfirmModal({
      title: missing ? MSG.events.noTemplate : MSG.events.templateLoadTitle,
      centered: true,
      withCloseButton: false,
      closeOnClickOutside: false,
      closeOnEscape: false,
      children: missing ? MSG.events.noTemplateText : MSG.events.templateLoadRetry,
      labels: { confirm: 'OK', cancel: '' },
      cancelProps: { display: 'none' },
      'data-testid': 'template-load-modal',
      onConfirm: () => (missing ? void navigate('/login') : void refetch()),
    } as Parameters<typeof modals.openConfirmModal>[0]);
    return () => modals.close(id);
  }, [error, template, navigate, refetch]);
}
