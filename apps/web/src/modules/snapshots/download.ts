import { notifications } from '@mantine/notifications';
import { ApiError } from '../../ui/api.ts';

function fileNameOf(res: Response, fallback: string): string {
  const header = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1] : fallback;
}

const mb = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Fetches a (possibly long) archive and saves it, reporting progress in a toast so the
 * operator sees that work is going on (DESIGN §9). Archives are streamed by the server, so the
 * total is often unknown: the toast then counts bytes.
 */
export async function downloadWithProgress(
  url: string,
  fallbackName: string,
  label: string,
  init: RequestInit = {},
): Promise<void> {
  const id = notifications.show({
    title: label,
    message: 'Preparing…',
    loading: true,
    autoClose: false,
    withCloseButton: false,
  });
  try {
    const res = await fetch(url, { ...init, credentials: 'same-origin' });
    if (!res.ok) {
      let body: ApiError['body'];
      try {
        body = (await res.json()) as ApiError['body'];
      } catch {
        body = undefined;
      }
      throw new ApiError(res.status, body);
    }
    const total = Number(res.headers.get('content-length') ?? 0);
    const reader = res.body!.getReader();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let received = 0;
    let lastShown = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      if (received - lastShown > 256 * 1024) {
        lastShown = received;
        notifications.update({
          id,
          message: total ? `${Math.round((received / total) * 100)} % (${mb(received)})` : `${mb(received)} received`,
        });
      }
    }
    const blob = new Blob(chunks, { type: res.headers.get('content-type') ?? 'application/octet-stream' });
    const href = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = fileNameOf(res, fallbackName);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
    notifications.update({
      id,
      message: `Downloaded ${mb(received)}`,
      loading: false,
      color: 'teal',
      autoClose: 3000,
      withCloseButton: true,
    });
  } catch (err) {
    notifications.hide(id);
    throw err;
  }
}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** The export's random 10-character password (spec 1 §7), shown to the operator. */
export function randomPassword(length = 10): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
  let out = '';
  // Rejection sampling keeps every character equally likely.
  for (const b of bytes) {
    if (b < 256 - (256 % PASSWORD_ALPHABET.length)) out += PASSWORD_ALPHABET[b % PASSWORD_ALPHABET.length];
    if (out.length === length) return out;
  }
  return out + randomPassword(length - out.length);
}

/** Anchor-click download of one file (same origin, so the name comes from the URL). */
export function downloadFile(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = url.split('/').pop() ?? 'photo';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
