/** The path and query-string helpers of the routes (route.ts), apart so that they come without zod. */

/** `/api/users/:id` + { id: 'x' } -> `/api/users/x` */
export function buildPath(path: string, params?: Record<string, unknown>): string {
  return (
    path
      .replace(/:(\w+)\??/g, (_m, key: string) => {
        const value = params?.[key];
        return value === undefined || value === null ? '' : encodeURIComponent(String(value));
      })
      .replace(/\/+$/, '') || '/'
  );
}

/**
 * Arrays travel as repeated `key[]=v` (the spec's `fields[]`, `slugDate[]`); the server's
 * query parser (parseQuery) is the inverse, so both sides agree in one place.
 */
export function toQueryString(query?: Record<string, unknown>): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const v of value) parts.push(`${encodeURIComponent(key)}[]=${encodeURIComponent(String(v))}`);
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

export function parseQuery(raw: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    if (k.endsWith('[]')) {
      const key = k.slice(0, -2);
      const prev = out[key];
      out[key] = Array.isArray(prev) ? [...prev, v] : prev === undefined ? [v] : [prev, v];
    } else if (k in out) {
      const prev = out[k];
      out[k] = Array.isArray(prev) ? [...prev, v] : [prev, v];
    } else {
      out[k] = v;
    }
  }
  return out;
}
