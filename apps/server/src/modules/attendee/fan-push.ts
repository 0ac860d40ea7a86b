import type { QueuePosition } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { queuePositions } from './attendee-app.service.ts';

/**
 * Pushed, not polled (issue 30 §3, docs/attendee-app.md): when a camera's state changes, each fan
 * of that queue (before or after the change) holding a stream on this instance gets `event: queue`
 * with the answer `GET /api/public/queue/position` gives, only when that answer changed (a host
 * reports its live time every second: the fans behind the live one hear nothing of it). The
 * stream's first event is the answer at opening, so the phone always shows the current one. Every
 * instance mirrors every camera's state (the cluster's `camera` channel), so each pushes to the
 * streams it holds and no fan is told twice. A photo's `event: photo` goes from the instance that
 * took it to all (`attendeeFeed.toFan`).
 */
export function pushQueuePlaces(deps: Deps): void {
  deps.cameras.onStateChange((before, after) => {
    const feed = deps.attendeeFeed;
    const fans = new Set([...(before?.queue ?? []), ...after.queue].filter((fanId) => feed.hasFan(fanId)));
    if (!fans.size) return;
    const states = deps.cameras.states();
    const now = queuePositions(states);
    const then = queuePositions(states.flatMap((s) => (s.camera !== after.camera ? [s] : before ? [before] : [])));
    for (const fanId of fans) {
      const answer = now(fanId);
      if (!samePlace(then(fanId), answer)) feed.toFanHere(fanId, 'queue', answer);
    }
  });
}

const samePlace = (a: QueuePosition, b: QueuePosition) =>
  a.camera === b.camera && a.position === b.position && a.state === b.state && a.liveTime === b.liveTime;
