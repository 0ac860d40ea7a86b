import type { Socket } from 'socket.io';
import type { ConsoleNamespace } from '../../plugins/socket.ts';

export type LiveFrame = { camera: string; frame: Buffer; fps: number; ts: number };

export const streamRoom = (camera: string) => `stream:${camera}`;

/**
 * Consoles written per turn of the event loop. A frame to 50 consoles is 50 socket writes
 * (~0.1 ms each on a busy box); in one turn they held everything else back (a photo's next step,
 * a database answer, timers) by 5–15 ms, and by more when a host's read carried several frames.
 */
const CONSOLES_PER_TURN = 8;

/**
 * Live frames to the consoles watching each camera, latest-wins per console and camera, written
 * a few consoles per turn. A volatile emit would drop every frame that arrives while the previous
 * write is in flight, so a host sending its cameras back to back starved all but the first; here
 * a busy console gets fewer frames, never none, and nothing queues up behind a slow one.
 */
export class FramePacer {
  /** Per console, the newest unsent frame of each camera; a console written goes to the back. */
  private readonly pending = new Map<Socket, Map<string, LiveFrame>>();
  private readonly awaitingDrain = new WeakSet<Socket>();
  /**
   * Consoles whose last frames still wait in engine.io's write buffer: packets go out on the
   * client's write tick (`batchWrites`, plugins/socket.ts), and the transport reads writable all
   * that while, so without this a newer frame of a camera would queue behind the older one.
   */
  private readonly unflushed = new WeakSet<Socket>();
  private scheduled = false;

  constructor(private readonly consoles: () => ConsoleNamespace) {}

  /** To this instance's consoles in the camera's stream room. */
  push(frame: LiveFrame): void {
    const ns = this.consoles();
    for (const id of ns.adapter.rooms.get(streamRoom(frame.camera)) ?? []) {
      const s = ns.sockets.get(id);
      if (!s) continue;
      let frames = this.pending.get(s);
      if (!frames) this.pending.set(s, (frames = new Map()));
      frames.set(frame.camera, frame);
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /**
   * The next few consoles ready to write: one broadcast per frame to all of them (socket.io
   * encodes the packet once). A console still writing (its last frames not yet flushed, or its
   * transport busy) keeps only its newest frame of each camera until then.
   */
  private flush(): void {
    this.scheduled = false;
    const to = new Map<LiveFrame, string[]>();
    let written = 0;
    for (const [s, frames] of this.pending) {
      if (s.disconnected) {
        this.pending.delete(s);
        continue;
      }
      if (this.unflushed.has(s)) continue;
      if (!s.conn.transport.writable) {
        this.afterDrain(s);
        continue;
      }
      if (written === CONSOLES_PER_TURN) {
        this.schedule();
        break;
      }
      written++;
      this.pending.delete(s);
      // A console that left a stream while its frame waited gets nothing more of it.
      let any = false;
      for (const frame of frames.values()) {
        if (!s.rooms.has(streamRoom(frame.camera))) continue;
        any = true;
        const ids = to.get(frame);
        if (ids) ids.push(s.id);
        else to.set(frame, [s.id]);
      }
      if (any) this.afterFlush(s);
    }
    const ns = this.consoles();
    for (const [frame, ids] of to) ns.local.to(ids).emit('livestream', frame);
  }

  /** engine.io's socket says when its write buffer went to the transport. */
  private afterFlush(s: Socket): void {
    this.unflushed.add(s);
    s.conn.once('flush', () => {
      this.unflushed.delete(s);
      if (this.pending.has(s)) this.schedule();
    });
  }

  /** The transport (not the engine socket) says when its write finished. */
  private afterDrain(s: Socket): void {
    if (this.awaitingDrain.has(s)) return;
    this.awaitingDrain.add(s);
    s.conn.transport.once('drain', () => {
      this.awaitingDrain.delete(s);
      this.schedule();
    });
  }
}
