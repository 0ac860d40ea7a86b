// Types only from the contract: its runtime (zod) would triple the app's size.
import type { PublicEvent, PublicSnapshot, PublicTemplate } from '@stadiumcam/contract';

export type { PublicEvent, PublicSnapshot, PublicTemplate };

/** An error answer of /api/public: the status, the server's text and the key of its first detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly key?: string,
  ) {
    super(message);
  }
}

/** The app's one HTTP client; it talks only to /api/public (DESIGN §10). */
export async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/api/public/${path}`, {
    method,
    headers: { Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const data = (await res.json().catch(() => undefined)) as
    { error?: string; details?: { key?: unknown }[] } | undefined;
  const key = data?.details?.[0]?.key;
  if (!res.ok)
    throw new ApiError(
      res.status,
      data?.error ?? `Request failed (${res.status})`,
      typeof key === 'string' ? key : undefined,
    );
  return data as T;
}

const q = (o: Record<string, string>) => new URLSearchParams(o).toString();

export const publicApi = {
  event: (slugDate?: string) => call<PublicEvent>('GET', `event${slugDate ? `?${q({ slugDate })}` : ''}`),
  joinQueue: (body: {
    slugDate: string;
    userId: string;
    seat: { seatType: string; section: string; row: string; seat: string };
    location?: { latitude: number; longitude: number };
  }) => call<{ camera: string; position: number }>('POST', 'queue', body),
  snapshots: (slugDate: string, userId: string) =>
    call<PublicSnapshot[]>('GET', `snapshots?${q({ slugDate, userId })}`),
  chooseOverlay: (id: string, userId: string, overlay: string | null) =>
    call<PublicSnapshot>('POST', `snapshots/${encodeURIComponent(id)}/overlay`, { userId, overlay }),
  share: (id: string, userId: string, socialSource: 'Download' | 'Email' | 'print' | 'Share') =>
    call<PublicSnapshot>('POST', `snapshots/${encodeURIComponent(id)}/share`, { userId, socialSource }),
  email: (id: string, body: { userId: string; userEmail: string; language: string }) =>
    call<{ ok: true }>('POST', `snapshots/${encodeURIComponent(id)}/email`, body),
  trivia: (slugDate: string, language: string) =>
    call<{ _id: string; question: string; answer1: string; answer2: string; correctAnswer: 1 | 2 }[]>(
      'GET',
      `trivia/${encodeURIComponent(slugDate)}/${encodeURIComponent(language)}`,
    ),
  streamUrl: (slugDate: string) => `/api/public/event/stream?${q({ slugDate })}`,
};

/** The fan's random id, kept on the phone: it proves which photos are theirs (docs/protocol.md §3). */
export function userId(): string {
  const KEY = 'stadiumcam.userId';
  let id = localStorage.getItem(KEY);
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = `fan-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
    localStorage.setItem(KEY, id);
  }
  return id;
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
  call('POST', 'pageView', body).catch(() => undefined);
}
