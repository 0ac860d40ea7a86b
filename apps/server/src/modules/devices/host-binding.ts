import { MSG } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import type { DeviceSocket } from '../cameras/index.ts';

/** How long a held host id's connection has to show it is alive before a new one takes its place. */
export const HOST_PROBE_MS = 3_000;
/** A claim in Redis outlives its instance by at most this (refreshed every third of it). */
const CLAIM_TTL_MS = 30_000;
/** The cross-instance question: "is this host id's connection alive on your side?" */
const PROBE_EVENT = 'host probe';
type ProbeAnswer = 'alive' | 'gone' | 'none';

// Compare-and-set / compare-and-delete on the claim, so an instance never overwrites or frees a
// claim another instance took meanwhile.
const SWAP = `local v = redis.call('get', KEYS[1]) if v == false or v == ARGV[1] then redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end return 0`;
const FREE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

type EngineConn = {
  readyState: string;
  sendPacket: (type: 'ping') => void;
  on: (event: 'packet' | 'close', f: () => void) => void;
  off: (event: 'packet' | 'close', f: () => void) => void;
};

/**
 * Whether a host's connection is alive: engine.io's own ping, sent now instead of at the next
 * heartbeat, answered by every socket.io client without host code (any packet counts). A
 * connection whose network was cut answers nothing; without this probe the server would see
 * it go only at its ping timeout (25 + 20 s).
 */
function answersPing(socket: DeviceSocket, ms: number): Promise<boolean> {
  const conn = socket.conn as unknown as EngineConn;
  if (conn.readyState !== 'open') return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (alive: boolean) => {
      clearTimeout(timer);
      conn.off('packet', onPacket);
      conn.off('close', onClose);
      resolve(alive);
    };
    const onPacket = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    conn.on('packet', onPacket);
    conn.on('close', onClose);
    conn.sendPacket('ping');
  });
}

/**
 * One connection per host id (docs/protocol.md §1, docs/security.md §15). The device token is
 * shared by every host, so a host id is bound to the connection that holds it: a second
 * connection with that id is refused while the first answers, so nobody takes over a host's
 * queue commands (its fans' ids and seats) or turns its cameras off by leaving. A connection
 * that does not answer a ping within HOST_PROBE_MS (a network cut, the host restarted) is
 * dropped and the new one takes its place: a host's reconnect is accepted within seconds.
 *
 * Several instances: the binding is a Redis key per host id (`<prefix>:host:<hostId>` = the
 * instance and socket holding it, set only when absent, refreshed while connected, freed on
 * disconnect). A connection to another instance asks every instance over socket.io's adapter
 * whether its connection for that id is alive; only when none says so does it swap the key.
 */
export class HostBinding {
  /** Host id → the connection holding it on this instance (from its handshake on). */
  private readonly local = new Map<string, DeviceSocket>();
  /** One handshake at a time per host id on this instance. */
  private readonly queue = new Map<string, Promise<unknown>>();
  private readonly refresh: NodeJS.Timeout | null = null;

  constructor(private readonly deps: Deps) {
    const redis = deps.cluster.redis;
    if (!redis) return;
    // Another instance asks about a host id held here.
    const devices = deps.realtime.devices as unknown as {
      on: (e: string, f: (hostId: unknown, answer: (a: ProbeAnswer) => void) => void) => void;
    };
    devices.on(PROBE_EVENT, (hostId, answer) => {
      if (typeof hostId !== 'string' || typeof answer !== 'function') return;
      this.probeLocal(hostId).then(answer, () => answer('none'));
    });
    this.refresh = setInterval(() => {
      const pipeline = redis.pipeline();
      for (const hostId of this.local.keys()) pipeline.pexpire(this.key(hostId), CLAIM_TTL_MS);
      pipeline.exec().catch(() => {});
    }, CLAIM_TTL_MS / 3);
    this.refresh.unref();
  }

  close(): void {
    if (this.refresh) clearInterval(this.refresh);
  }

  private key(hostId: string): string {
    return this.deps.cluster.key(`host:${hostId}`);
  }

  private claimOf(socket: DeviceSocket): string {
    return `${this.deps.cluster.id}/${socket.id}`;
  }

  /**
   * Binds `hostId` to this handshake's connection. Answers null when it may go on, else the
   * refusal text. Handshakes for one host id run one after another on each instance.
   */
  bind(socket: DeviceSocket, hostId: string): Promise<string | null> {
    const before = this.queue.get(hostId) ?? Promise.resolve();
    const run = before.then(() => this.bindNow(socket, hostId));
    const tail = run.catch(() => null);
    this.queue.set(hostId, tail);
    void tail.then(() => {
      if (this.queue.get(hostId) === tail) this.queue.delete(hostId);
    });
    return run;
  }

  private async bindNow(socket: DeviceSocket, hostId: string): Promise<string | null> {
    if ((await this.probeLocal(hostId)) === 'alive') return this.refuse(hostId);
    const redis = this.deps.cluster.redis;
    if (redis) {
      const key = this.key(hostId);
      const mine = this.claimOf(socket);
      try {
        if ((await redis.set(key, mine, 'PX', CLAIM_TTL_MS, 'NX')) !== 'OK') {
          const held = (await redis.get(key)) ?? '';
          if (!held.startsWith(`${this.deps.cluster.id}/`) && (await this.anyAlive(hostId))) {
            return this.refuse(hostId);
          }
          // The holder is gone (or was this instance's, already probed): take its place, unless
          // another instance did so meanwhile.
          if ((await redis.eval(SWAP, 1, key, held, mine, CLAIM_TTL_MS)) !== 1) return this.refuse(hostId);
        }
      } catch (err) {
        // Redis away: this instance's own binding still holds; the other instances are not asked.
        this.deps.log.warn({ err, hostId }, 'host id binding without Redis');
      }
    }
    this.local.set(hostId, socket);
    return null;
  }

  private refuse(hostId: string): string {
    this.deps.log.warn({ hostId }, 'second connection for a connected host id refused');
    return MSG.devices.hostIdInUse(hostId);
  }

  /** This instance's connection for `hostId`: alive, or dropped now because it did not answer. */
  private async probeLocal(hostId: string): Promise<ProbeAnswer> {
    const held = this.local.get(hostId);
    if (!held) return 'none';
    if (await answersPing(held, HOST_PROBE_MS)) return 'alive';
    if (this.local.get(hostId) === held) this.local.delete(hostId);
    this.deps.log.warn({ hostId }, 'a host connection did not answer: replaced by its new connection');
    held.disconnect(true);
    return 'gone';
  }

  /** Whether another instance holds a live connection for `hostId` (the ones that answer in time). */
  private anyAlive(hostId: string): Promise<boolean> {
    const devices = this.deps.realtime.devices as unknown as {
      serverSideEmit: (e: string, hostId: string, ack: (err: unknown, answers: ProbeAnswer[]) => void) => void;
    };
    // The adapter answers with what came before its requestsTimeout (5 s, above HOST_PROBE_MS);
    // an instance that died without leaving Redis is not waited for longer.
    return new Promise((resolve) => {
      devices.serverSideEmit(PROBE_EVENT, hostId, (_err, answers) =>
        resolve(Array.isArray(answers) && answers.includes('alive')),
      );
    });
  }

  /** The connection left: its host id is free (unless a newer connection holds it already). */
  release(socket: DeviceSocket, hostId: string): void {
    if (this.local.get(hostId) !== socket) return;
    this.local.delete(hostId);
    this.deps.cluster.redis?.eval(FREE, 1, this.key(hostId), this.claimOf(socket)).catch(() => {});
  }
}
