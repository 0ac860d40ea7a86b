import { useSyncExternalStore } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { MSG, TEMPLATE_PARTS, partFromEvent, type TemplatePartName } from '@stadiumcam/contract';
import { ApiError, api } from '../../ui/api.ts';
import { showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { EVENTS_KEY, useEvent } from '../events/events.hooks.ts';
import { useSelectedEvents } from '../events/selection.store.ts';
import { useTemplateLoadErrors } from './template-load.ts';

export type PartInput<N extends TemplatePartName> = z.input<(typeof TEMPLATE_PARTS)[N]['schema']>;

/**
 * What every template screen edits: the events chosen in the shared selector (the master
 * template when 'Master Template' was chosen) and the part's stored value, read from the first
 * of them (DESIGN §10). `key` changes with the selection (and the stored value) so a
 * screen's form starts afresh.
 */
export function useTemplatePart<N extends TemplatePartName>(name: N) {
  const { events, slugDates } = useSelectedEvents();
  const first = events[0];
  const event = useEvent(first?.slugDate);
  const value = event.data ? partFromEvent(name, event.data) : undefined;
  useTemplateLoadErrors(event, !!first?.template);
  return {
    events,
    eventIds: events.map((e) => e._id),
    first,
    event,
    value,
    // Pending until the session's event selection is known (after a reload it comes with the
    // session's first queries) and the event has loaded: a form shown before that, on the
    // defaults, would be replaced and lose what the operator typed into it.
    loading: event.isPending,
    // The stored value, not the fetch time: a refetch bringing the same data (after a failed
    // save, on focus) keeps the operator's unsaved edits; a changed value starts afresh.
    key: `${slugDates.join(',')}|${value ? hashText(JSON.stringify(value)) : event.status}`,
  };
}

/** FNV-1a, enough to tell two stored values apart in a React key. */
function hashText(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36) + text.length.toString(36);
}

/** Counts successful part saves: a template screen's edits before the last save are saved. */
let savedCount = 0;
const savedListeners = new Set<() => void>();
const subscribeSaved = (fn: () => void) => {
  savedListeners.add(fn);
  return () => void savedListeners.delete(fn);
};
/** Changes each time a template part was saved (TemplatePage clears its unsaved edits then). */
export const usePartSavedCount = () => useSyncExternalStore(subscribeSaved, () => savedCount);

/**
 * Saves a part to every selected event (`PATCH /api/events/<part>` with eventIds), with the
 * spec's feedback: 'Event successfully updated', or the server's rule text on a refusal, or
 * 'Error trying to update the event, try again'. The form keeps its values on failure.
 */
export function useSavePart<N extends TemplatePartName>(name: N, opts: { quiet?: boolean } = {}) {
  const qc = useQueryClient();
  const { events } = useSelectedEvents();
  return useMutation({
    mutationFn: (value: PartInput<N>) =>
      api(
        TEMPLATE_PARTS[name].route as never,
        {
          body: { eventIds: events.map((e) => e._id), ...value },
        } as never,
      ) as Promise<PartInput<N>>,
    onSuccess: () => {
      savedCount++;
      savedListeners.forEach((fn) => fn());
      if (!opts.quiet) showSuccessModal(MSG.template.eventSuccessfullyUpdated);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.body?.error) {
        showErrorModal(err.status === 404 ? MSG.events.eventDataOld : err.body.error);
      } else showErrorModal(MSG.events.eventUpdateRetry);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: EVENTS_KEY }),
  });
}
