import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io';
import { z } from 'zod';
import {
  CameraKeySchema,
  MAGIC_USER_PREFIX,
  MSG,
  P,
  SNOOZE_MINUTES,
  can,
  formatPtzCommand,
  parsePosition,
  parsePtzCommand,
  snapshotsRoutes,
  type ConsoleClientEvents,
  type AuditAction,
  type ConsoleServerEvents,
  type Permission,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { CAMERAS_ROOM, type HostRef } from '../cameras/index.ts';
import { streamRoom } from '../cameras/index.ts';
import { currentEvent, eventBySlugDate } from '../events/index.ts';
import { banUser } from '../snapshots/index.ts';
import { AppError } from '../../errors.ts';
import { auditNote, auditSafeObject, newAuditScope, runInAuditScope, targetsOf } from '../../audit-context.ts';
import { recordAudit } from '../audit/index.ts';

type ConsoleSocket = Socket<ConsoleClientEvents, ConsoleServerEvents, Record<string, never>, { user: AuthUser }>;
type Answer = { ok: true; [k: string]: unknown } | { ok: false; error: string };
type Need = { perms: Permission[]; or?: boolean };

const CAMERA_VIEWERS: Permission[] = [P.MONITOR_READ, P.CAM_STATUS, P.POWER_BTN];
const NO_HOST_ANSWER = 'Camera host did not answer';

/** The commands the audit log records (docs/audit.md), with the ack's ok or error as the result. */
const AUDITED: Partial<Record<keyof ConsoleClientEvents, AuditAction>> = {
  'power all cameras': 'camera.power',
  'power camera': 'camera.power',
  'set demo mode': 'camera.demo',
  'take MagicShot': 'camera.takePhoto',
  'boot user': 'camera.kick',
  'ban user': 'camera.ban',
  'snooze user': 'camera.snooze',
  'restart acs': 'camera.restart',
};

const UserIdSchema = z.string().trim().min(1).max(200);
const schemas = {
  power: z.object({ on: z.boolean() }),
  powerOne: z.object({ camera: CameraKeySchema, on: z.boolean() }),
  demo: z.object({ demo: z.boolean() }),
  move: z.object({ target: z.literal('host').optional(), camera: CameraKeySchema, command: z.string().max(100) }),
  camera: z.object({ camera: CameraKeySchema }),
  position: z.object({ target: z.literal('host').optional(), camera: CameraKeySchema }),
  stream: z.object({ room: z.string().min(1).max(200), camera: CameraKeySchema }),
  magic: z.object({ slug: z.string().max(200).optional(), camera: CameraKeySchema.optional() }),
  user: z.object({ userId: UserIdSchema }),
  snooze: z.object({ userId: UserIdSchema, minutes: z.number().int().min(1).max(60).optional() }),
};

/** The host's answer, or the reason there is none; never waits longer than `timeoutMs`. */
async function askHost<E extends 'ptz' | 'live time' | 'shot' | 'restart' | 'magicshot'>(
  timeoutMs: number,
  host: HostRef,
  event: E,
  payload: Parameters<import('@stadiumcam/contract').DeviceServerEvents[E]>[0],
): Promise<Answer> {
  try {
    const answer = (await host.ask(event, payload, timeoutMs)) as Answer | null;
    if (!answer || typeof answer !== 'object' || typeof answer.ok !== 'boolean')
      return { ok: false, error: MSG.cameras.badHostAnswer };
    if (!answer.ok) return { ok: false, error: String(answer.error ?? 'Camera host refused').slice(0, 500) };
    return answer;
  } catch {
    return { ok: false, error: NO_HOST_ANSWER };
  }
}

/**
 * Camera commands from consoles (docs/protocol.md §2). Every command checks the session's
 * permissions itself; the console's gates only decide what is displayed.
 */
export function registerMonitorSocket(deps: Deps): void {
  const hub = deps.cameras;
  const joins = new WeakMap<ConsoleSocket, Set<string>>();

  deps.realtime.consoles.on('connection', (socket: ConsoleSocket) => {
    const user = socket.data.user;
    if (can(user.permissions, CAMERA_VIEWERS, { or: true })) void socket.join(CAMERAS_ROOM);

    /** Registers one command: permission, payload schema, handler; always answers by ack. */
    function command<S extends z.ZodType | null>(
      name: keyof ConsoleClientEvents,
      need: Need | ((payload: S extends z.ZodType ? z.output<S> : undefined) => Need),
      schema: S,
      handler: (payload: S extends z.ZodType ? z.output<S> : undefined) => Answer | Promise<Answer>,
    ): void {
      (socket as unknown as { on: (e: string, l: (...args: unknown[]) => void) => void }).on(name, (...args) => {
        const ack = typeof args.at(-1) === 'function' ? (args.pop() as (a: Answer) => void) : () => {};
        const run = async (): Promise<Answer> => {
          let payload: unknown = undefined;
          if (schema) {
            const parsed = schema.safeParse(args[0]);
            if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'Bad payload' };
            payload = parsed.data;
          }
          const p = payload as S extends z.ZodType ? z.output<S> : undefined;
          const n = typeof need === 'function' ? need(p) : need;
          if (!can(user.permissions, n.perms, { or: n.or })) {
            deps.log.warn({ user: user.username, command: name, needs: n.perms }, 'camera command refused');
            return { ok: false, error: MSG.common.insufficientPermissions };
          }
          return handler(p);
        };
        const action = AUDITED[name];
        const scope = newAuditScope();
        const answered = (action ? runInAuditScope(scope, run) : run()).catch((err: unknown) => {
          deps.log.error({ err, command: name }, 'camera command failed');
          return { ok: false, error: MSG.common.genericError };
        });
        void answered.then(async (answer) => {
          if (action) await audit(action, args[0], answer, scope);
          ack(answer);
        });
      });
    }

    /** One entry per audited command, written before the ack so the console that reads the log next finds it. */
    const audit = async (
      action: AuditAction,
      payload: unknown,
      answer: Answer,
      scope: ReturnType<typeof newAuditScope>,
    ) => {
      const found = targetsOf(payload);
      const { ok: _ok, error: _error, ...answered } = answer as Record<string, unknown>;
      await recordAudit(deps, {
        action,
        actorId: user._id,
        username: user.username,
        slugDate: scope.slugDate !== undefined ? scope.slugDate : found.slugDate,
        targets: { ...found.targets, ...auditSafeObject(scope.targets) },
        detail: {
          request: auditSafeObject(payload),
          ...auditSafeObject({ answer: answered }),
          ...auditSafeObject(scope.detail),
        },
        address: socket.handshake.address || null,
        result: answer.ok ? 'done' : 'refused',
        reason: answer.ok ? null : answer.error,
      }).catch((err: unknown) => deps.log.error({ err, action }, 'audit entry not written'));
    };

    type Targets = Map<string, { host: HostRef; cameras: string[] }>;
    const powerRelay = (targets: Targets, on: boolean, single?: string): Answer => {
      if (hub.demo) return { ok: false, error: MSG.cameras.demoModeOn };
      if (targets.size === 0) return { ok: false, error: MSG.cameras.noCameras };
      const cameras = [...targets.values()].flatMap((t) => t.cameras);
      for (const { host, cameras: keys } of targets.values()) {
        // The status comes back as a report; a silent host only leaves a log line.
        const notConfirmed = () =>
          deps.log.warn({ hostId: host.hostId, cameras: keys, on }, 'power command not confirmed');
        host
          .ask('power', single ? { camera: single, on } : { on }, deps.config.hostAckTimeoutMs)
          .then((answer: { ok?: boolean } | null) => answer?.ok || notConfirmed(), notConfirmed);
      }
      deps.log.info({ user: user.username, on, cameras }, 'camera power');
      return { ok: true, cameras };
    };

    command('power all cameras', { perms: [P.POWER_BTN] }, schemas.power, ({ on }) => powerRelay(hub.hosts(), on));
    command('power camera', { perms: [P.POWER_BTN] }, schemas.powerOne, ({ camera, on }) => {
      const host = hub.hostOf(camera);
      if ('error' in host) return { ok: false, error: host.error };
      return powerRelay(new Map([[host.hostId, { host, cameras: [camera] }]]), on, camera);
    });

    command('get demo mode', { perms: CAMERA_VIEWERS, or: true }, null, () => ({ ok: true, demo: hub.demo }));
    command('set demo mode', { perms: [P.POWER_BTN] }, schemas.demo, ({ demo }) => {
      hub.setDemo(demo);
      return { ok: true, demo };
    });

    const mover: Need = { perms: [P.MONITOR_READ, P.CONFIG], or: true };
    command('rover move', mover, schemas.move, async ({ camera, command: text }) => {
      const cmd = parsePtzCommand(text);
      if ('error' in cmd) {
        deps.log.info({ user: user.username, camera, command: text, reason: cmd.error }, 'camera move not sent');
        return { ok: false, error: cmd.error };
      }
      const host = hub.hostOf(camera);
      if ('error' in host) return { ok: false, error: host.error };
      const answer = await askHost(deps.config.hostAckTimeoutMs, host, 'ptz', {
        camera,
        command: formatPtzCommand(cmd),
      });
      if (cmd.kind === 'position') sendPosition(camera, answer);
      return answer.ok ? { ok: true, answer: String(answer.answer ?? '') } : answer;
    });

    const sendPosition = (camera: string, answer: Answer) => {
      const data = answer.ok ? String(answer.answer ?? '') : '';
      if (answer.ok && parsePosition(data)) socket.emit('position', { camera, data });
      else socket.emit('position', { camera, error: answer.ok ? data || 'No position' : answer.error });
    };
    command('rover get position', mover, schemas.position, async ({ camera }) => {
      const host = hub.hostOf(camera);
      if ('error' in host) return { ok: false, error: host.error };
      const answer = await askHost(deps.config.hostAckTimeoutMs, host, 'ptz', { camera, command: '#' });
      sendPosition(camera, answer);
      if (!answer.ok) return answer;
      const position = String(answer.answer ?? '');
      return parsePosition(position) ? { ok: true, position } : { ok: false, error: position || 'No position' };
    });

    const monitor: Need = { perms: [P.MONITOR_READ] };
    command('getInitTotalQueue', monitor, null, () => ({
      ok: true,
      queues: Object.fromEntries(hub.states().map((s) => [s.camera, s.queue])),
    }));
    command('getLiveTime', monitor, schemas.camera, async ({ camera }) => {
      const host = hub.hostOf(camera);
      if ('error' in host) return { ok: false, error: host.error };
      const answer = await askHost(deps.config.hostAckTimeoutMs, host, 'live time', { camera });
      return answer.ok ? { ok: true, liveTime: Number(answer.liveTime) || 0 } : answer;
    });

    command(
      'join monitor livestream',
      ({ room }) => (room === 'map' ? { perms: [P.CONFIG, P.MONITOR_READ], or: true } : monitor),
      schemas.stream,
      async ({ room, camera }) => {
        if (!hub.get(camera)) return { ok: false, error: MSG.cameras.unknownCamera(camera) };
        const set = joins.get(socket) ?? new Set<string>();
        joins.set(socket, set);
        set.add(`${room}\n${camera}`);
        await socket.join(streamRoom(camera));
        return { ok: true };
      },
    );
    command('leave livestream', { perms: [] }, schemas.stream, async ({ room, camera }) => {
      const set = joins.get(socket);
      set?.delete(`${room}\n${camera}`);
      // The same camera may still be watched through the other room (monitor and mapping tool).
      if (![...(set ?? [])].some((k) => k.endsWith(`\n${camera}`))) await socket.leave(streamRoom(camera));
      return { ok: true };
    });

    command('take MagicShot', { perms: [P.MAGICSHOTS_WRITE] }, schemas.magic, async ({ slug, camera }) => {
      const event = slug ? await eventBySlugDate(deps, slug) : await currentEvent(deps);
      if (!event) return { ok: false, error: MSG.events.unknownEvent(String(slug)) };
      auditNote({ slugDate: event.slugDate });
      const keys = camera
        ? [camera]
        : hub
            .states()
            .filter((s) => s.status === 'on')
            .map((s) => s.camera);
      if (!keys.length) return { ok: false, error: MSG.cameras.noCameras };
      hub.setActive(event.slugDate);
      const answers = await Promise.all(
        keys.map(async (key) => {
          const host = hub.hostOf(key);
          if ('error' in host) return { key, userId: '', answer: { ok: false, error: host.error } as Answer };
          if (hub.get(key)?.status !== 'on')
            return { key, userId: '', answer: { ok: false, error: MSG.cameras.cameraIsOff(key) } as Answer };
          const userId = `${MAGIC_USER_PREFIX}-${randomUUID().slice(0, 8)}`;
          return {
            key,
            userId,
            answer: await askHost(deps.config.hostAckTimeoutMs, host, 'magicshot', {
              camera: key,
              slugDate: event.slugDate,
              userId,
            }),
          };
        }),
      );
      const failed = answers.find((a) => !a.answer.ok);
      deps.log.info({ user: user.username, cameras: keys, failed: failed?.key }, 'magic shot');
      if (failed && !failed.answer.ok)
        return { ok: false, error: MSG.cameras.cameraFailed(failed.key, failed.answer.error) };
      return { ok: true, cameras: keys, shots: answers.map(({ key, userId }) => ({ camera: key, userId })) };
    });

    const toAllHosts = async (event: 'kick' | 'ban' | 'snooze', payload: { userId: string; minutes?: number }) => {
      for (const { host } of hub.hosts().values()) {
        host
          .ask(event, payload, deps.config.hostAckTimeoutMs)
          .catch(() => deps.log.warn({ hostId: host.hostId, event }, 'host did not confirm'));
      }
      deps.log.info({ user: user.username, event, userId: payload.userId }, 'queue user command');
      return { ok: true } as Answer;
    };
    command('boot user', monitor, schemas.user, ({ userId }) => toAllHosts('kick', { userId }));
    // A ban keeps the attendee off the cameras and takes their photos out of sight
    // ("photos moved", spec 1 §8): hidden, with new URLs, as the album's user ban does.
    // The monitor's ban needs what the album's user ban needs (it hides the user's photos too).
    const banner: Need = { perms: [...snapshotsRoutes.banUser.permission], or: true };
    command('ban user', banner, schemas.user, async ({ userId }) => {
      hub.ban(userId);
      try {
        await banUser(deps, user, userId, true);
      } catch (err) {
        if (!(err instanceof AppError && err.statusCode === 404)) throw err;
      }
      return toAllHosts('ban', { userId });
    });
    command('snooze user', monitor, schemas.snooze, ({ userId, minutes }) =>
      toAllHosts('snooze', { userId, minutes: minutes ?? SNOOZE_MINUTES }),
    );

    const config: Need = { perms: [P.CONFIG] };
    command('take shot', config, schemas.camera, async ({ camera }) => {
      const host = hub.hostOf(camera);
      if ('error' in host) return { ok: false, error: host.error };
      const answer = await askHost(deps.config.hostAckTimeoutMs, host, 'shot', { camera });
      if (!answer.ok) return answer;
      if (!Buffer.isBuffer(answer.image)) return { ok: false, error: MSG.cameras.noImageFromCamera };
      socket.emit('shot image', { camera, image: answer.image });
      return { ok: true };
    });
    command('restart acs', config, schemas.camera, async ({ camera }) => {
      const host = hub.hostOf(camera);
      if ('error' in host) return { ok: false, error: host.error };
      const answer = await askHost(deps.config.hostAckTimeoutMs, host, 'restart', { camera });
      return answer.ok ? { ok: true } : answer;
    });
  });
}
