/**
 * The live-time countdown's deadline (ms since epoch) from a host's reports of `liveTime`
 * (seconds left of the current attendee's turn, rounded up by the host).
 *
 * A report is taken as it comes unless it names (within the host's 1 s rounding) the deadline
 * already running: the whole camera state also arrives for fps changes, and restarting from
 * those would make the count jump back up. No test of "the same attendee" is needed: a new turn
 * ends at least a whole turn after the last one, and comparing attendees broke when the
 * separate `monitor queue` event had already put the next attendee into the state (every turn
 * then looked like the same one and sat at 0:00).
 */
export function liveDeadline(previous: number | undefined, liveTime: number, now: number): number {
  const reported = now + Math.max(0, liveTime) * 1000;
  if (previous === undefined) return reported;
  // The same deadline, seen again: rounding up puts a report up to 1 s after the true end.
  return reported >= previous - 1000 && reported <= previous + 1000 ? previous : reported;
}

/** Whole seconds left until the deadline (rounded up, as the host counts; never below 0). */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
