import { MSG, SNOOZE_MINUTES, snapshotsRoutes } from '@stadiumcam/contract';
import { confirm, showErrorModal, toast } from '../../ui/feedback.tsx';
import { getConsoleSocket } from '../../ui/socket.ts';
import { useCan } from '../auth/session.hooks.ts';

type UserCommand = 'boot user' | 'ban user' | 'snooze user';

function send(event: UserCommand, payload: { userId: string; minutes?: number }, done: string) {
  getConsoleSocket().emit(event, payload, (answer) => {
    if (answer.ok) toast(done);
    else showErrorModal(answer.error);
  });
}

/**
 * Kick, snooze and ban an attendee (spec 1 §7), from a camera tile or a notification card. Kick
 * and snooze need Monitor:read (the pages that show them do); ban needs what the album's user ban
 * needs, and the server checks both again.
 */
export function useUserCommands() {
  const canBan = useCan([...snapshotsRoutes.banUser.permission], { or: true });
  return {
    canBan,
    kick: async (userId: string) => {
      const ok = await confirm({
        title: MSG.userCommands.kickTitle,
        text: MSG.userCommands.kickConfirm(userId),
        confirmLabel: MSG.userCommands.kickLabel,
        danger: true,
      });
      if (ok) send('boot user', { userId }, MSG.userCommands.kicked(userId));
    },
    snooze: (userId: string) =>
      send('snooze user', { userId, minutes: SNOOZE_MINUTES }, MSG.userCommands.snoozed(userId, SNOOZE_MINUTES)),
    ban: async (userId: string) => {
      const ok = await confirm({
        title: MSG.userCommands.banTitle,
        text: MSG.userCommands.banConfirm(userId),
        confirmLabel: MSG.userCommands.banLabel,
        danger: true,
      });
      if (ok) send('ban user', { userId }, MSG.userCommands.banned(userId));
    },
  };
}
