/**
 * A crowd of fans that stays for the whole run (the realtime bench's BENCH_FANS, issue 30 point 6):
 * each phone gets its fan id, fetches the public event and holds its live stream, reopened as the
 * app's EventSource does; a share of the crowd joins a queue every 5 minutes and waits for its
 * photo as the queue screen does, so queues and fan pushes stay alive through an hour.
 */
import { performance } from 'node:perf_hooks';
import type { PublicEvent } from '@stadiumcam/contract';
import { Client, fanApi, pickSeat, Stream, Tally, waitForPhoto, type Fan, type FanPhone } from './fan-client.ts';

/** The server's `retry: 3000`: an EventSource whose stream dropped opens it again after it. */
const RECONNECT_MS = 3000;
/** The app's wait before opening a refused stream again (live.ts REOPEN_MS; the caps answer Retry-After: 30). */
const REOPEN_MS = 30_000;

export type CrowdCounters = {
  arrived: number;
  streamsHeld: number;
  /** Streams that ended without the crowd closing them. */
  drops: number;
  /** Streams opened again after a drop or a refusal. */
  reopened: number;
  /** Stream openings answered other than 200, or not at all. */
  refused: number;
  joins: number;
  queueFull: number;
  photos: number;
  waiting: number;
};

export type FanCrowd = {
  counters: () => CrowdCounters;
  tally: Tally;
  stop: () => void;
};

export function startFanCrowd(
  urls: string[],
  opts: { fans: number; arrivalRate: number; joinSharePer5Min: number },
): FanCrowd {
  const tally = new Tally();
  const clients = urls.map((u) => new Client(u, tally));
  const c: CrowdCounters = {
    arrived: 0,
    streamsHeld: 0,
    drops: 0,
    reopened: 0,
    refused: 0,
    joins: 0,
    queueFull: 0,
    photos: 0,
    waiting: 0,
  };
  const phones: FanPhone[] = [];
  const inQueue = new Set<FanPhone>();
  const timers = new Set<NodeJS.Timeout>();
  let slugDate = '';
  let stopping = false;
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!stopping) fn();
    }, ms);
    timers.add(t);
  };

  const hold = async (phone: FanPhone, again: boolean): Promise<void> => {
    const q = new URLSearchParams({ slugDate, fan: phone.fan!.fanToken });
    let stream: Stream | undefined;
    try {
      stream = await Stream.open(
        phone.client.base,
        `/api/public/event/stream?${q.toString()}`,
        (name, data) => {
          if (name === 'queue') phone.pushes = true;
          phone.pushed?.(name, data);
        },
        () => {
          if (stopping) return;
          c.streamsHeld--;
          c.drops++;
          later(RECONNECT_MS, () => void hold(phone, true));
        },
      );
      tally.count('stream', stream.status);
    } catch (err) {
      tally.count('stream', `error ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    if (stopping) return stream?.close();
    if (stream?.status !== 200) {
      c.refused++;
      return later(REOPEN_MS, () => void hold(phone, true));
    }
    phone.stream = stream;
    c.streamsHeld++;
    if (!again) return;
    c.reopened++;
    // Open again: a change made meanwhile is fetched (live.ts).
    void fanApi(phone, 'event (stream reopened)', 'GET', 'event').catch(() => undefined);
  };

  const arrive = async (phone: FanPhone) => {
    try {
      phone.fan = await fanApi<Fan>(phone, 'fan', 'POST', 'fan');
      slugDate = (await fanApi<PublicEvent>(phone, 'event', 'GET', 'event')).slugDate;
      c.arrived++;
      await hold(phone, false);
    } catch {
      /* counted by kind and status */
    }
  };

  const queueVisit = async (phone: FanPhone) => {
    inQueue.add(phone);
    try {
      const seat = await pickSeat(phone);
      const joinedAt = new Date().toISOString();
      const joined = await phone.client.request('join', 'POST', '/api/public/queue', {
        body: { slugDate, userId: phone.fan!.userId, seat },
        headers: { accept: 'application/json', 'x-fan-token': phone.fan!.fanToken },
      });
      if (joined.status === 409) c.queueFull++;
      if (joined.status !== 200) return;
      c.joins++;
      c.waiting++;
      const id = await waitForPhoto(phone, slugDate, joinedAt, () => stopping);
      c.waiting--;
      if (id) c.photos++;
    } catch {
      /* counted by kind and status */
    } finally {
      inQueue.delete(phone);
    }
  };

  // Arrivals at a steady rate (paced against the clock, so a slow turn does not slow the crowd).
  void (async () => {
    const start = performance.now();
    for (let i = 0; i < opts.fans && !stopping; i++) {
      const wait = start + (i / opts.arrivalRate) * 1000 - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const phone: FanPhone = { i, client: clients[i % clients.length] };
      phones.push(phone);
      void arrive(phone);
    }
  })();

  // Joins spread evenly, the crowd in turn (each fan about once per 5 min / share), skipping
  // phones without a stream or still waiting.
  let next = 0;
  const joinsPerSecond = (opts.fans * opts.joinSharePer5Min) / 300;
  const joining =
    joinsPerSecond > 0
      ? setInterval(() => {
          for (let tries = 0; tries < phones.length; tries++) {
            const phone = phones[next++ % phones.length];
            if (phone.stream && !phone.stream.closed && !inQueue.has(phone)) return void queueVisit(phone);
          }
        }, 1000 / joinsPerSecond)
      : undefined;

  return {
    counters: () => ({ ...c }),
    tally,
    stop: () => {
      stopping = true;
      tally.closed = true;
      clearInterval(joining);
      for (const t of timers) clearTimeout(t);
      for (const p of phones) p.stream?.close();
      for (const client of clients) client.close();
    },
  };
}
