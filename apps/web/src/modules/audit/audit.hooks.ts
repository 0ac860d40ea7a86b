import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditRoutes, toQueryString, type AuditFilter } from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';

export const AUDIT_KEY = ['audit'] as const;

/** One page of the audit log: the filter and the cursor of the page (undefined = newest). */
export function useAuditPage(filter: AuditFilter, cursor: string | undefined) {
  return useQuery({
    queryKey: [...AUDIT_KEY, filter, cursor ?? null],
    queryFn: () => api(auditRoutes.list, { query: { ...filter, cursor } }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** The CSV of the same filter (the server streams it; the browser saves it). */
export const auditCsvUrl = (filter: AuditFilter) => auditRoutes.exportCsv.path + toQueryString(filter);
