/**
 * A fan's phone as the load processes play it (fans.bench.ts, and the crowd of realtime.bench.ts
 * with BENCH_FANS): the HTTP client, the live stream (SSE) and the queue screen's wait for the
 * photo, each as the attendee app does it (apps/attendee/src: api.ts, live.ts, screens/).
 */
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import type { PublicSnapshot, QueuePosition } from '@stadiumcam/contract';

export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** Answers by request kind and status, and failures (5xx, 429, no answer). */
export class Tally {
  readonly byKind = new Map<string, Map<string, number>>();
  readonly failures: string[] = [];
  /** Set when the run ends: requests cut off by closing the sockets are not the server's doing. */
  closed = false;
  count(kind: string, status: number | string): void {
    if (this.closed) return;
    let m = this.byKind.get(kind);
    if (!m) this.byKind.set(kind, (m = new Map()));
    m.set(String(status), (m.get(String(status)) ?? 0) + 1);
    const failed = typeof status === 'string' || status >= 500 || status === 429;
    if (failed && this.failures.length < 20) this.failures.push(`${kind} ${status}`);
  }
  failed(): number {
    let n = 0;
    for (const m of this.byKind.values())
      for (const [s, c] of m) if (!/^\d+$/.test(s) || Number(s) >= 500 || s === '429') n += c;
    return n;
  }
}

/**
 * One origin's HTTP client: keep-alive sockets shared by the phones (a browser keeps up to six per
 * phone; the server's per-request work is the same), answers decoded when asked.
 */
export class Client {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  constructor(
    readonly base: string,
    private readonly tally: Tally,
  ) {}

  request(
    kind: string,
    method: string,
    pathname: string,
    opts: { headers?: Record<string, string>; body?: unknown; decode?: boolean } = {},
    retry = true,
  ): Promise<Answer> {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${this.base}${pathname}`,
        {
          method,
          agent: this.agent,
          headers: {
            'accept-encoding': 'gzip, deflate, br',
            'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) bench-fans',
            ...(body !== undefined ? { 'content-type': 'application/json', origin: this.base } : {}),
            ...opts.headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => opts.decode && chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            this.tally.count(kind, res.statusCode!);
            let data = Buffer.concat(chunks);
            const enc = res.headers['content-encoding'];
            if (opts.decode && enc === 'br') data = zlib.brotliDecompressSync(data);
            else if (opts.decode && enc === 'gzip') data = zlib.gunzipSync(data);
            resolve({ status: res.statusCode!, headers: res.headers, body: data });
          });
        },
      );
      req.setTimeout(60_000, () => req.destroy(new Error('timeout')));
      req.on('error', (err) => {
        // A kept-alive socket the server closed meanwhile: a browser sends the request again.
        if (retry && req.reusedSocket && (err as NodeJS.ErrnoException).code === 'ECONNRESET')
          return void this.request(kind, method, pathname, opts, false).then(resolve, reject);
        this.tally.count(kind, `error ${(err as NodeJS.ErrnoException).code ?? err.message}`);
        reject(err);
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * The live stream as an EventSource holds it, on a socket of its own: the status line, then
 * events (`event: <name>\ndata: ...\n\n`; HTTP/1.1 chunk framing sits only between writes, and
 * the server writes each event in one). The template's data is not kept (only its arrival time).
 */
export class Stream {
  status = 0;
  closed = false;
  private headerDone = false;
  private tail = Buffer.alloc(0);
  private pending: string | null = null;
  private parts: Buffer[] = [];

  private constructor(
    private readonly socket: net.Socket,
    private readonly onEvent: (name: string, data: string | null) => void,
  ) {}

  static open(
    base: string,
    pathname: string,
    onEvent: (name: string, data: string | null) => void,
    onClose: () => void,
  ): Promise<Stream> {
    const url = new URL(base);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname);
      const stream = new Stream(socket, onEvent);
      let settled = false;
      socket.setNoDelay(true);
      socket.on('connect', () =>
        socket.write(
          `GET ${pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n` +
            `Accept-Encoding: gzip, deflate, br\r\nUser-Agent: bench-fans\r\n\r\n`,
        ),
      );
      socket.on('data', (buf: Buffer) => {
        stream.read(buf);
        if (!settled && stream.status) {
          settled = true;
          resolve(stream);
        }
      });
      socket.on('error', (err) => {
        if (!settled) {
          settled = true;
          reject(err);
        }
      });
      socket.on('close', () => {
        stream.closed = true;
        if (!settled) {
          settled = true;
          reject(new Error('stream closed before its answer'));
        } else if (stream.status === 200) onClose();
      });
    });
  }

  private read(chunk: Buffer): void {
    let b = this.tail.length ? Buffer.concat([this.tail, chunk]) : chunk;
    this.tail = Buffer.alloc(0);
    if (!this.headerDone) {
      const end = b.indexOf('\r\n\r\n');
      if (end < 0) {
        this.tail = Buffer.from(b);
        return;
      }
      this.status = Number(b.toString('latin1', 9, 12));
      this.headerDone = true;
      if (this.status !== 200) {
        this.socket.destroy();
        return;
      }
      b = b.subarray(end + 4);
    }
    let pos = 0;
    for (;;) {
      if (this.pending === null) {
        const i = b.indexOf('event: ', pos);
        if (i < 0) {
          this.tail = Buffer.from(b.subarray(Math.max(pos, b.length - 8)));
          return;
        }
        const nl = b.indexOf(10, i);
        if (nl < 0) {
          this.tail = Buffer.from(b.subarray(i));
          return;
        }
        this.pending = b.toString('latin1', i + 7, nl);
        pos = nl + 1;
      } else {
        const end = b.indexOf('\n\n', pos);
        const keep = this.pending !== 'template';
        if (end < 0) {
          if (keep) this.parts.push(Buffer.from(b.subarray(pos, b.length - 1)));
          this.tail = Buffer.from(b.subarray(Math.max(pos, b.length - 1)));
          return;
        }
        let data: string | null = null;
        if (keep) {
          this.parts.push(b.subarray(pos, end));
          data = Buffer.concat(this.parts)
            .toString('utf8')
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          this.parts = [];
        }
        const name = this.pending;
        this.pending = null;
        pos = end + 2;
        this.onEvent(name, data);
      }
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

export type Fan = { userId: string; fanToken: string };

/** What the shared helpers need of a phone (the benches add their own state). */
export type FanPhone = {
  i: number;
  client: Client;
  fan?: Fan;
  stream?: Stream;
  /** Stream events the queue screen listens to (pushes of issue 30.3, when the server sends them). */
  pushed?: (name: string, data: string | null) => void;
  /** The server pushes this fan's queue place on its stream (a `queue` event came): no poll while it is up. */
  pushes?: boolean;
  /** The last `queue` push's data, kept as the app keeps it (`live.ts`, `lastQueuePush`). */
  lastQueue?: string | null;
};

/** A call of the public API with the phone's fan token, as `api.ts` makes it; throws on 4xx/5xx. */
export async function fanApi<T>(phone: FanPhone, kind: string, method: string, p: string, body?: unknown): Promise<T> {
  const a = await phone.client.request(kind, method, `/api/public/${p}`, {
    body,
    decode: true,
    headers: { accept: 'application/json', ...(phone.fan ? { 'x-fan-token': phone.fan.fanToken } : {}) },
  });
  if (a.status >= 400) throw Object.assign(new Error(`${kind} ${a.status}`), { status: a.status });
  return JSON.parse(a.body.toString('utf8')) as T;
}

/** The seat screen's pickers: sections, rows, seats, each phone its own pick. */
export async function pickSeat(phone: FanPhone) {
  const options = async (q: Record<string, string>) =>
    (await fanApi<{ options: string[] }>(phone, 'seats', 'GET', `seats?${new URLSearchParams(q).toString()}`)).options;
  const pick = (list: string[], fallback: string) => (list.length ? list[phone.i % list.length] : fallback);
  const seatType = 'section';
  const section = pick(await options({ seatType }), '101');
  const row = pick(await options({ seatType, section }), 'A');
  const seat = pick(await options({ seatType, section, row }), '1');
  return { seatType, section, row, seat };
}

/** The fan's own photos, as the queue and photo screens ask for them. */
export const myPhotosPath = (slugDate: string, phone: FanPhone) =>
  `snapshots?${new URLSearchParams({ slugDate, userId: phone.fan!.userId }).toString()}`;

/**
 * The queue screen until the photo is there (its id, or null once `stopping()`), as
 * `screens/queue.tsx` does: it asks once (photos + position) when it opens. With a server that
 * pushes on the fan's stream (issue 30.3: `queue` on open and on each change, `photo` when the
 * photo is in) it then only listens while its stream is up, asks again on a `photo` push, and
 * asks every 5 s while the stream is down or its turn is on or over; without pushes it asks every 3 s, every second once
 * the turn is near (the screen before issue 30.3).
 */
export function waitForPhoto(
  phone: FanPhone,
  slugDate: string,
  joinedAt: string,
  stopping: () => boolean,
): Promise<string | null> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let near = false;
    let done = false;
    let asked = 0;
    // As the queue screen: until one answer came (asked, or a `queue` push) it asks every 5 s,
    // and once its turn is on or over (live, or out of the queue) until the photo is there.
    let answered = false;
    let turnOn = false;
    const finish = (id: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(ending);
      phone.pushed = undefined;
      resolve(id);
    };
    const ending = setInterval(() => stopping() && finish(null), 1000);
    const ask = async () => {
      asked = performance.now();
      try {
        const [photos, turn] = await Promise.all([
          fanApi<PublicSnapshot[]>(phone, 'snapshots (queue)', 'GET', myPhotosPath(slugDate, phone)),
          fanApi<QueuePosition>(
            phone,
            'queue position',
            'GET',
            `queue/position?userId=${encodeURIComponent(phone.fan!.userId)}`,
          ),
        ]);
        answered = true;
        const fresh = photos.find((p) => p.date >= joinedAt);
        if (fresh) finish(fresh._id);
        near = turn.state !== 'waiting';
        turnOn = turn.state === 'live' || turn.state === 'none';
      } catch {
        /* the app tries again at its next tick */
      }
    };
    const next = () => {
      if (done) return;
      if (phone.pushes) {
        const down = !phone.stream || phone.stream.closed;
        if ((down || !answered || turnOn) && performance.now() - asked >= 5000) void ask();
        timer = setTimeout(next, 1000);
      } else void ask().then(() => !done && (timer = setTimeout(next, near ? 1000 : 3000)));
    };
    phone.pushed = (name, data) => {
      if (name === 'photo') return void ask();
      answered = true;
      turnOn = !!data && (data.includes('"state":"live"') || data.includes('"state":"none"'));
    };
    // Just joined with its stream up, the screen waits for the pushes instead of asking at once.
    if (phone.pushes && phone.stream && !phone.stream.closed) {
      asked = performance.now();
      // The join's own report, pushed before the screen listened, is its first answer.
      if (phone.lastQueue && !phone.lastQueue.includes('"state":"none"')) {
        answered = true;
        turnOn = phone.lastQueue.includes('"state":"live"');
      }
      timer = setTimeout(next, 1000);
    } else void ask().then(() => !done && (timer = setTimeout(next, phone.pushes ? 1000 : near ? 1000 : 3000)));
  });
}
