// The contract without zod (its runtime would triple the app's size): the app's routes, their
// methods and paths (`attendee-routes`, part of the lite entry), and every type.
import {
  attendeeAppRoutes,
  attendeeRoutes,
  buildPath,
  pageViewRoute,
  publicTriviaRoute,
  toQueryString,
} from '@stadiumcam/contract/attendee-routes';
import type {
  FanId,
  HttpMethod,
  PublicEvent,
  PublicSnapshot,
  PublicTemplate,
  RouteDef,
  RouteInput,
  RouteResponse,
} from '@stadiumcam/contract/lite';
import { isPreview } from './preview.ts';

export type { PublicEvent, PublicSnapshot, PublicTemplate };

/** An error answer of /api/public: the status, the server's text and the key of its first detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly key?: string,
    /** Seconds the server asked to wait (`Retry-After`), on a 429 or 503. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** How often a phone asks again for its fan id while the server says 'later' (then it goes on without). */
const FAN_ID_TRIES = 4;

const FAN_TOKEN_KEY = 'stadiumcam.fanToken';
let asking: Promise<string> | null = null;

async function send<T>(method: HttpMethod, path: string, body?: unknown, fanToken?: string): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(fanToken ? { 'X-Fan-Token': fanToken } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const data = (await res.json().catch(() => undefined)) as
    { error?: string; details?: { key?: unknown }[] } | undefined;
  const key = data?.details?.[0]?.key;
  if (!res.ok) {
    // A token the server no longer takes (its key changed): the next call asks for a new fan id.
    if (res.status === 401 && fanToken && localStorage.getItem(FAN_TOKEN_KEY) === fanToken)
      localStorage.removeItem(FAN_TOKEN_KEY);
    throw new ApiError(
      res.status,
      data?.error ?? `Request failed (${res.status})`,
      typeof key === 'string' ? key : undefined,
      Number(res.headers.get('retry-after')) || undefined,
    );
  }
  return data as T;
}

/**
 * The fan's token, issued by the server once and kept on the phone (docs/security.md §18): it
 * proves the fan id is the server's, and every call carries it (`X-Fan-Token`) so limits count
 * this phone, not the stadium Wi-Fi it shares an address with. Previews have none.
 */
export function fanToken(): Promise<string> {
  const kept = localStorage.getItem(FAN_TOKEN_KEY);
  if (kept) return Promise.resolve(kept);
  asking ??= askFanId(FAN_ID_TRIES)
    .then((fan) => {
      localStorage.setItem(FAN_TOKEN_KEY, fan.fanToken);
      return fan.fanToken;
    })
    .finally(() => {
      asking = null;
    });
  return asking;
}

/**
 * A fan id, asked again after the wait the server names (spread by up to 5 s) while a crowd
 * arriving at once is over the venue address's budget (429), instead of the landing showing
 * no event.
 */
async function askFanId(tries: number): Promise<FanId> {
  try {
    return await send<FanId>(attendeeAppRoutes.fan.method, attendeeAppRoutes.fan.path);
  } catch (err) {
    if (tries <= 1 || !(err instanceof ApiError) || err.status !== 429) throw err;
    const wait = Math.min(err.retryAfter ?? 5, 30) * 1000 + Math.random() * 5000;
    await new Promise((resolve) => setTimeout(resolve, wait));
    return askFanId(tries - 1);
  }
}

/** What a route is called with: its params, query and body as the contract types them. */
type Input<R extends RouteDef> = { [K in keyof RouteInput<R>]?: RouteInput<R>[K] };

/**
 * The app's one HTTP client: a contract route (all under /api/public, DESIGN §10), its path
 * built from the route's own, with the fan's token.
 */
export async function call<R extends RouteDef>(route: R, input: Input<R> = {}): Promise<RouteResponse<R>> {
  const token = isPreview ? undefined : await fanToken().catch(() => undefined);
  const path = buildPath(route.path, input.params ?? undefined) + toQueryString(input.query ?? undefined);
  return send(route.method, path, input.body, token);
}

export type SeatsQuery = RouteInput<typeof attendeeAppRoutes.seats>['query'];

export const publicApi = {
  event: (slugDate?: string) => call(attendeeRoutes.event, { query: slugDate ? { slugDate } : {} }),
  joinQueue: (body: RouteInput<typeof attendeeRoutes.joinQueue>['body']) => call(attendeeRoutes.joinQueue, { body }),
  snapshots: (slugDate: string, userId: string) => call(attendeeRoutes.snapshots, { query: { slugDate, userId } }),
  chooseOverlay: (id: string, userId: string, overlay: string | null) =>
    call(attendeeRoutes.chooseOverlay, { params: { id }, body: { userId, overlay } }),
  share: (id: string, userId: string, socialSource: 'Download' | 'Email' | 'print' | 'Share') =>
    call(attendeeRoutes.share, { params: { id }, body: { userId, socialSource } }),
  email: (id: string, body: RouteInput<typeof attendeeAppRoutes.email>['body']) =>
    call(attendeeAppRoutes.email, { params: { id }, body }),
  /** The questions, without the right answer: the server checks an answer (`triviaAnswer`). */
  trivia: (slugDate: string, language: string) => call(publicTriviaRoute, { params: { slugDate, language } }),
  triviaAnswer: (slugDate: string, language: string, questionId: string, answer: 1 | 2) =>
    call(attendeeAppRoutes.triviaAnswer, { params: { slugDate, language }, body: { questionId, answer } }),
  queuePosition: (userId: string) => call(attendeeAppRoutes.queuePosition, { query: { userId } }),
  /** One seat form field's choices from the venue's seat map. */
  seats: (query: SeatsQuery) => call(attendeeAppRoutes.seats, { query }),
  /** The live stream, keyed to the fan (an EventSource cannot send headers: the token is in the query). */
  streamUrl: (slugDate: string, token: string) =>
    attendeeAppRoutes.stream.path + toQueryString({ slugDate, fan: token }),
};

/**
 * The fan's id, the server-issued one its token carries (docs/security.md §18): it proves which
 * photos are theirs (docs/protocol.md §3). Empty until the token is there; the app fetches the
 * event (and so the token) before any screen shows.
 */
export function userId(): string {
  const token = localStorage.getItem(FAN_TOKEN_KEY) ?? '';
  return token.slice(0, Math.max(0, token.indexOf('.')));
}

export type DeviceClass = 'mobile' | 'tablet' | 'desktop';
export type PageViewBody = {
  slugDate: string;
  page: string;
  device: DeviceClass;
  language: string;
  country?: string;
  screen: { width: number; height: number };
};

/**
 * The page-view report of one screen (docs/protocol.md §3, DESIGN §12), from what the browser
 * tells: the device class by the screen's short side and pointer, `navigator.language`, the
 * region of that locale (when it names a country) and the screen size. No id, no cookie.
 */
export function pageViewBody(
  slugDate: string,
  page: string,
  phone: { language: string; width: number; height: number; coarsePointer: boolean },
): PageViewBody {
  const short = Math.min(phone.width, phone.height);
  const device: DeviceClass = !phone.coarsePointer ? 'desktop' : short < 600 ? 'mobile' : 'tablet';
  const tag = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/.test(phone.language) ? phone.language : 'und';
  let region: string | undefined;
  try {
    region = new Intl.Locale(tag).region;
  } catch {
    region = undefined;
  }
  const size = (n: number) => Math.min(20_000, Math.max(1, Math.round(n) || 1));
  return {
    slugDate,
    page,
    device,
    language: tag,
    ...(region && /^[A-Z]{2}$/.test(region) ? { country: region } : {}),
    screen: { width: size(phone.width), height: size(phone.height) },
  };
}

/** Reports one page view; fire and forget: a failed report never blocks the fan. */
export function reportPageView(slugDate: string, page: string): void {
  const body = pageViewBody(slugDate, page, {
    language: navigator.language,
    width: screen.width,
    height: screen.height,
    coarsePointer: matchMedia('(pointer: coarse)').matches,
  });
  call(pageViewRoute, { body }).catch(() => undefined);
}
