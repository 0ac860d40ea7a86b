import {
  buildPath,
  toQueryString,
  type RouteDef,
  type RouteInput,
  type RouteResponse,
} from '@stadiumcam/contract/lite';

/** An error answer: the status and the server's `{ error, details }` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: string; details?: unknown[] } | undefined,
  ) {
    super(body?.error ?? `Request failed (${status})`);
  }
}

type Input<R extends RouteDef> = {
  [K in keyof RouteInput<R> as RouteInput<R>[K] extends undefined ? never : K]: RouteInput<R>[K];
};

/** The console's one HTTP client: typed by the contract route it calls. */
export async function api<R extends RouteDef>(
  route: R,
  ...[input]: keyof Input<R> extends never ? [input?: Partial<RouteInput<R>>] : [input: Input<R>]
): Promise<RouteResponse<R>> {
  const i = (input ?? {}) as Partial<RouteInput<R>>;
  const url =
    buildPath(route.path, i.params as Record<string, unknown>) + toQueryString(i.query as Record<string, unknown>);
  const res = await fetch(url, {
    method: route.method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...(i.body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: i.body !== undefined ? JSON.stringify(i.body) : undefined,
  });
  if (res.status === 204) return undefined as RouteResponse<R>;
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) throw new ApiError(res.status, body as ApiError['body']);
  return body as RouteResponse<R>;
}

/** The server's error text, for showing under a field or in a modal. */
export const errorText = (err: unknown, fallback: string) =>
  err instanceof ApiError && err.body?.error ? err.body.error : fallback;

/** A multipart upload to a contract route (files and text fields); answers like `api`. */
export async function apiForm<R extends RouteDef>(route: R, form: FormData): Promise<RouteResponse<R>> {
  const res = await fetch(route.path, { method: route.method, credentials: 'same-origin', body: form });
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw new ApiError(res.status, body as ApiError['body']);
  return body as RouteResponse<R>;
}
