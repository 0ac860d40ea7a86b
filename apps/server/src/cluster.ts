import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.ts';

type Handler = (payload: any, from: string) => void;
export type FrameMeta = { camera: string; fps: number; ts: number };

/**
 * What one instance tells the others (DESIGN §13, docs/operations.md "Several instances").
 * Console fan-out and host commands go through socket.io's Redis adapter; this carries the
 * server-side state the others mirror (camera registry, demo mode, bans, queues, template
 * pushes, seat map reloads) and the live frames, which a console on another instance needs.
 * Alone (no REDIS_URL) every call is a no-op and nothing needs Redis.
 */
export type Cluster = {
  /** This instance, in every message it sends. */
  readonly id: string;
  /** The shared Redis (commands), or null alone. */
  readonly redis: Redis | null;
  /** A key or channel name under this deployment's prefix. */
  key: (name: string) => string;
  /** socket.io's adapter factory (undefined alone: the in-memory adapter). */
  readonly adapter?: ReturnType<typeof createAdapter>;
  /** Tells every other instance; dropped while Redis is away (state is re-sent by the heartbeat). */
  publish: (kind: string, payload: unknown) => void;
  on: (kind: string, handler: Handler) => void;
  publishFrame: (meta: FrameMeta, jpeg: Buffer) => void;
  onFrame: (handler: (meta: FrameMeta, jpeg: Buffer) => void) => void;
  /** A message from an instance not heard before (started, or back after Redis was away): tell it your state. */
  onInstanceSeen: (handler: (instance: string) => void) => void;
  /** Another instance fell silent for `GONE_AFTER_MS` (killed, cut off): its state is stale. */
  onInstanceGone: (handler: (instance: string) => void) => void;
  close: () => Promise<void>;
};

export const HEARTBEAT_MS = 2_000;
export const GONE_AFTER_MS = 6_000;

const noop = () => {};
export const SOLO_CLUSTER: Cluster = {
  id: 'solo',
  redis: null,
  key: (name) => name,
  publish: noop,
  on: noop,
  publishFrame: noop,
  onFrame: noop,
  onInstanceSeen: noop,
  onInstanceGone: noop,
  close: async () => {},
};

/** The URL without its password, for messages. */
const shownUrl = (url: string) => {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'REDIS_URL';
  }
};

/** Connects to REDIS_URL or fails with one clear line (cause first): the server does not start. */
export async function createCluster(config: AppConfig, log: FastifyBaseLogger): Promise<Cluster> {
  if (!config.redis) return SOLO_CLUSTER;
  const { url, prefix } = config.redis;
  // The adapter's commands wait while Redis is away (no rejection it would leave unhandled) and
  // run when it returns; this instance's own commands fail at once instead (rate limits let
  // requests pass, live messages are dropped: see `ready`).
  const waiting: RedisOptions = { lazyConnect: true, maxRetriesPerRequest: null, connectTimeout: 5_000 };
  const failing: RedisOptions = { ...waiting, enableOfflineQueue: false, maxRetriesPerRequest: 1 };
  const clients = [new Redis(url, failing), new Redis(url, waiting), new Redis(url, waiting), new Redis(url, waiting)];
  const [cmd, adapterPub, adapterSub, sub] = clients;
  let warnedAt = 0;
  for (const c of clients) {
    c.on('error', (err: Error) => {
      // ioredis retries by itself; one line every 10 s is enough to say Redis is away.
      if (Date.now() - warnedAt < 10_000) return;
      warnedAt = Date.now();
      log.warn({ err: err.message }, 'redis unreachable: cross-instance messages wait until it returns');
    });
  }
  try {
    await Promise.all(clients.map((c) => c.connect()));
  } catch (err) {
    for (const c of clients) c.disconnect();
    throw new Error(`Redis at ${shownUrl(url)} is unreachable: ${(err as Error).message} (check REDIS_URL)`);
  }

  const id = randomUUID();
  const key = (name: string) => `${prefix}:${name}`;
  const channel = key('cluster');
  const frameChannel = key('frames');
  const handlers = new Map<string, Handler[]>();
  const frameHandlers: ((meta: FrameMeta, jpeg: Buffer) => void)[] = [];
  const goneHandlers: ((instance: string) => void)[] = [];
  const seenHandlers: ((instance: string) => void)[] = [];
  const lastSeen = new Map<string, number>();
  const heard = (from: string) => {
    const known = lastSeen.has(from);
    lastSeen.set(from, Date.now());
    if (!known) for (const h of seenHandlers) h(from);
  };
  const ready = () => cmd.status === 'ready';

  sub.on('messageBuffer', (ch: Buffer, message: Buffer) => {
    const name = ch.toString();
    try {
      if (name === frameChannel) {
        const size = message.readUInt32BE(0);
        const head = JSON.parse(message.subarray(4, 4 + size).toString()) as FrameMeta & { from: string };
        if (head.from === id) return;
        heard(head.from);
        const jpeg = message.subarray(4 + size);
        for (const h of frameHandlers) h(head, jpeg);
        return;
      }
      const m = JSON.parse(message.toString()) as { from: string; kind: string; payload: unknown };
      if (m.from === id) return;
      heard(m.from);
      for (const h of handlers.get(m.kind) ?? []) h(m.payload, m.from);
    } catch (err) {
      log.warn({ err, channel: name }, 'bad cluster message');
    }
  });
  await sub.subscribe(channel, frameChannel);

  const publish = (kind: string, payload: unknown) => {
    if (!ready()) return;
    cmd.publish(channel, JSON.stringify({ from: id, kind, payload })).catch(noop);
  };
  const heartbeat = setInterval(() => {
    publish('alive', null);
    const now = Date.now();
    for (const [instance, seen] of lastSeen) {
      if (now - seen < GONE_AFTER_MS) continue;
      lastSeen.delete(instance);
      log.warn({ instance }, 'an instance fell silent: its cameras are off here until their hosts reconnect');
      for (const h of goneHandlers) h(instance);
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    id,
    redis: cmd,
    key,
    adapter: createAdapter(adapterPub, adapterSub, { key: key('socket.io') }),
    publish,
    on: (kind, handler) => handlers.set(kind, [...(handlers.get(kind) ?? []), handler]),
    publishFrame: (meta, jpeg) => {
      if (!ready()) return;
      const head = Buffer.from(JSON.stringify({ ...meta, from: id }));
      const size = Buffer.alloc(4);
      size.writeUInt32BE(head.length);
      cmd.publish(frameChannel, Buffer.concat([size, head, jpeg])).catch(noop);
    },
    onFrame: (handler) => frameHandlers.push(handler),
    onInstanceSeen: (handler) => seenHandlers.push(handler),
    onInstanceGone: (handler) => goneHandlers.push(handler),
    close: async () => {
      clearInterval(heartbeat);
      await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
