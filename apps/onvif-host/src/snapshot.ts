import { createHash, randomBytes } from 'node:crypto';

/*
 * A still from the camera's snapshot URI (ONVIF GetSnapshotUri): plain HTTP GET, with HTTP
 * digest or basic auth as the camera asks in its 401 (the digest is remembered per URI so
 * later requests answer the challenge at once). Refused: no answer within the timeout, not a
 * JPEG, or larger than the limit (the download stops there).
 */
export type SnapshotOptions = { username: string; password: string; timeoutMs: number; maxBytes: number };

type Challenge = { scheme: 'basic' } | { scheme: 'digest'; params: Record<string, string> };

function parseChallenge(header: string | null): Challenge | null {
  if (!header) return null;
  const digest = /Digest\s+(.*)/i.exec(header);
  if (digest) {
    const params: Record<string, string> = {};
    for (const m of digest[1].matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)) params[m[1].toLowerCase()] = m[2] ?? m[3];
    return { scheme: 'digest', params };
  }
  return /Basic/i.test(header) ? { scheme: 'basic' } : null;
}

function authorization(c: Challenge, url: URL, o: SnapshotOptions, nc: number): string {
  if (c.scheme === 'basic') return `Basic ${Buffer.from(`${o.username}:${o.password}`).toString('base64')}`;
  const p = c.params;
  const algorithm = (p.algorithm ?? 'MD5').toUpperCase();
  const hashName = algorithm.startsWith('SHA-256') ? 'sha256' : 'md5';
  const h = (s: string) => createHash(hashName).update(s).digest('hex');
  const uri = url.pathname + url.search;
  const ha1 = h(`${o.username}:${p.realm}:${o.password}`);
  const ha2 = h(`GET:${uri}`);
  const qop = p.qop
    ?.split(',')
    .map((q) => q.trim())
    .includes('auth')
    ? 'auth'
    : undefined;
  const cnonce = randomBytes(8).toString('hex');
  const ncText = String(nc).padStart(8, '0');
  const response = qop ? h(`${ha1}:${p.nonce}:${ncText}:${cnonce}:${qop}:${ha2}`) : h(`${ha1}:${p.nonce}:${ha2}`);
  const parts = [
    `username="${o.username}"`,
    `realm="${p.realm}"`,
    `nonce="${p.nonce}"`,
    `uri="${uri}"`,
    `algorithm=${p.algorithm ?? 'MD5'}`,
    `response="${response}"`,
    ...(qop ? [`qop=${qop}`, `nc=${ncText}`, `cnonce="${cnonce}"`] : []),
    ...(p.opaque ? [`opaque="${p.opaque}"`] : []),
  ];
  return `Digest ${parts.join(', ')}`;
}

export class SnapshotClient {
  private challenge: Challenge | null = null;
  private nc = 0;

  constructor(
    readonly uri: string,
    private readonly opts: SnapshotOptions,
  ) {}

  /** Fetches one JPEG; throws a message fit for the camera's status line. */
  async get(): Promise<Buffer> {
    const url = new URL(this.uri);
    const signal = AbortSignal.timeout(this.opts.timeoutMs);
    try {
      let res = await this.request(url, signal);
      if (res.status === 401) {
        await res.body?.cancel();
        const challenge = parseChallenge(res.headers.get('www-authenticate'));
        if (!challenge) throw new Error('The snapshot URI asks for an authentication the host does not speak');
        this.challenge = challenge;
        res = await this.request(url, signal);
        if (res.status === 401) {
          await res.body?.cancel();
          this.challenge = null;
          throw new Error('The camera refused the username or password for snapshots');
        }
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`The snapshot URI answered HTTP ${res.status}`);
      }
      return await this.read(res);
    } catch (err) {
      if ((err as Error).name === 'TimeoutError' || signal.aborted)
        throw new Error(`Snapshot timed out after ${this.opts.timeoutMs} ms`);
      // fetch says "fetch failed"; the network's reason is its cause.
      const code = (err as { cause?: { code?: string } }).cause?.code;
      if (code) throw new Error(`${code} ${url.host}`);
      throw err;
    }
  }

  private request(url: URL, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.challenge) headers.authorization = authorization(this.challenge, url, this.opts, ++this.nc);
    return fetch(url, { headers, signal, redirect: 'error' });
  }

  private async read(res: Response): Promise<Buffer> {
    const max = this.opts.maxBytes;
    const declared = Number(res.headers.get('content-length') ?? 0);
    const tooBig = () => new Error(`Snapshot larger than ${Math.round(max / 1000)} KB refused`);
    if (declared > max) {
      await res.body?.cancel();
      throw tooBig();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    for (;;) {
      const part = reader ? await reader.read() : { done: true as const, value: undefined };
      if (part.done) break;
      size += part.value.byteLength;
      if (size > max) {
        await reader?.cancel().catch(() => undefined);
        throw tooBig();
      }
      chunks.push(Buffer.from(part.value));
    }
    const jpeg = Buffer.concat(chunks);
    if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) {
      throw new Error(`Snapshot is not a JPEG (${res.headers.get('content-type') ?? 'no content type'})`);
    }
    return jpeg;
  }
}
