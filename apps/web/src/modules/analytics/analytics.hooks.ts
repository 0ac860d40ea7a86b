import { useEffect, useRef } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import {
  MSG,
  P,
  analyticsRoutes as r,
  can,
  type BasicAnalytics,
  type PastEventData,
  type VisionAnalytics,
  type WebAnalytics,
} from '@stadiumcam/contract';
import { api, ApiError } from '../../ui/api.ts';
import { showErrorModal } from '../../ui/feedback.tsx';
import { useLiveRefresh } from '../../ui/live-refresh.hooks.ts';
import { useSession } from '../auth/session.hooks.ts';

export const analyticsKeys = {
  basic: (slugDate: string) => ['analytics', 'basic', slugDate] as const,
  web: (slugDate: string) => ['analytics', 'web', slugDate] as const,
  vision: (slugDate: string) => ['analytics', 'vision', slugDate] as const,
  past: (slugDate: string) => ['analytics', 'past', slugDate] as const,
};

/** One analytics bucket (spec 3 §3): fetching while it has neither data nor error. */
export type Bucket<T> = {
  data: T | undefined;
  isFetching: boolean;
  error: string | null;
  hasValues: boolean;
  /** False when the caller lacks the bucket's permission: the section shows its notice. */
  allowed: boolean;
};

const settled = (q: UseQueryResult<unknown>) => q.isSuccess || q.isError;

function bucket<T extends { hasValues?: boolean }>(
  q: UseQueryResult<T>,
  allowed: boolean,
  errorText: string,
): Bucket<T> {
  return {
    data: q.data,
    isFetching: allowed && !q.data && !q.isError,
    error: q.isError ? errorText : null,
    hasValues: Boolean(q.data?.hasValues ?? q.data),
    allowed,
  };
}

/**
 * The error rule of spec 3 §8: a 404 on an ended event is silent (the panels show their
 * fallbacks); any other error is logged and the generic modal shown; a past-event failure
 * always shows it.
 */
function useErrorModal(q: UseQueryResult<unknown>, eventStatus: string | undefined, always = false) {
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!q.error || shown.current === q.error) return;
    shown.current = q.error;
    const silent = !always && q.error instanceof ApiError && q.error.status === 404 && eventStatus === 'post';
    if (silent) return;
    console.error(q.error);
    showErrorModal();
  }, [q.error, eventStatus, always]);
}

/**
 * The loading chain (spec 3 §4): basic, then web analytics, then vision; the past event's data
 * in parallel. A bucket the user may not read is skipped and the chain goes on.
 */
export function useAnalytics(slugDate: string | undefined, eventStatus: string | undefined) {
  const { permissions } = useSession();
  const mayWeb = can(permissions, P.ANALYTICS_GA_READ);
  const mayVision = can(permissions, P.ANALYTICS_VISION_READ);
  const on = Boolean(slugDate);
  const params = { slugDate: slugDate ?? '' };
  const retry = false;

  const basic = useQuery({
    queryKey: analyticsKeys.basic(params.slugDate),
    queryFn: () => api(r.basic, { params }),
    enabled: on,
    retry,
  });
  const web = useQuery({
    queryKey: analyticsKeys.web(params.slugDate),
    queryFn: () => api(r.google, { params }),
    enabled: on && mayWeb && settled(basic),
    retry,
  });
  const webDone = !mayWeb || settled(web);
  const vision = useQuery({
    queryKey: analyticsKeys.vision(params.slugDate),
    queryFn: () => api(r.vision, { params }),
    enabled: on && mayVision && settled(basic) && webDone,
    retry,
  });
  const past = useQuery({
    queryKey: analyticsKeys.past(params.slugDate),
    queryFn: () => api(r.pastEventData, { params }),
    enabled: on,
    retry,
  });
  useErrorModal(basic, eventStatus);
  useErrorModal(web, eventStatus);
  useErrorModal(vision, eventStatus);
  useErrorModal(past, eventStatus, true);

  return {
    basic: bucket<BasicAnalytics>(basic, true, MSG.analytics.basicFailed),
    ga: bucket<WebAnalytics>(web, mayWeb, MSG.analytics.webFailed),
    vision: bucket<VisionAnalytics>(vision, mayVision, MSG.analytics.visionFailed),
    pastEvent: bucket<PastEventData & { hasValues?: boolean }>(past, true, MSG.common.genericError),
  };
}

/** Live (issue 14 §4): the basic figures and timeline follow the event's photos. */
export const useLiveAnalytics = (slugDate: string | undefined, live: boolean) =>
  useLiveRefresh(slugDate, live, analyticsKeys.basic(slugDate ?? ''));
