import { z } from 'zod';
import { MSG, P, can, rowsOf, sectionsOf, seatsOf, type Permission } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';

/** Who may ask for seat lists: the mapping tool, the template's blocked seats, the monitor. */
const SEAT_READERS: Permission[] = [P.CONFIG, P.TEMPLATE, P.MONITOR_READ];
const Text = z.string().trim().min(1).max(50);
const schemas = {
  getSections: z.object({ type: Text }),
  getRows: z.object({ type: Text, section: Text }),
  getSeats: z.object({ type: Text, section: Text, row: Text }),
};

type Answer = { ok: true; [k: string]: unknown } | { ok: false; error: string };

/** getSections / getRows / getSeats on /console: answered from the seat map in use. */
export function registerMappingSocket(deps: Deps): void {
  deps.realtime.consoles.on('connection', (socket) => {
    const on = <K extends keyof typeof schemas>(name: K, answer: (p: z.output<(typeof schemas)[K]>) => Answer) => {
      (socket as unknown as { on: (e: string, l: (...args: unknown[]) => void) => void }).on(name, (...args) => {
        const ack = typeof args.at(-1) === 'function' ? (args.pop() as (a: Answer) => void) : () => {};
        if (!can(socket.data.user.permissions, SEAT_READERS, { or: true })) {
          deps.log.warn({ user: socket.data.user.username, command: name }, 'seat map question refused');
          return ack({ ok: false, error: MSG.common.insufficientPermissions });
        }
        const parsed = schemas[name].safeParse(args[0]);
        if (!parsed.success) return ack({ ok: false, error: parsed.error.issues[0]?.message ?? 'Bad payload' });
        ack(answer(parsed.data as z.output<(typeof schemas)[K]>));
      });
    };
    const map = () => deps.seatMap.current;
    on('getSections', ({ type }) => ({ ok: true, sections: sectionsOf(map(), type) }));
    on('getRows', ({ type, section }) => ({ ok: true, rows: rowsOf(map(), type, section) }));
    on('getSeats', ({ type, section, row }) => ({ ok: true, seats: seatsOf(map(), type, section, row) }));
  });
}
