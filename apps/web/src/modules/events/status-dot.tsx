import { Box } from '@mantine/core';
import type { EventStatus } from '@stadiumcam/contract/lite';

/** One colour per status for the header, the event selector and the calendar. */
export const STATUS_COLOR: Record<EventStatus, string> = {
  live: 'var(--mantine-color-red-6)',
  pre: 'var(--mantine-color-yellow-5)',
  post: 'var(--mantine-color-gray-6)',
};

const DOT: Record<EventStatus, { color: string; label: string }> = {
  live: { color: STATUS_COLOR.live, label: 'active' },
  pre: { color: STATUS_COLOR.pre, label: 'semi-active' },
  post: { color: STATUS_COLOR.post, label: 'off' },
};

/** Status dot (spec 1 §4): active while live, semi-active while pre, off for post. */
export function StatusDot({ status }: { status: EventStatus }) {
  const live = status === 'live';
  return (
    <Box
      data-testid="status-dot"
      data-state={DOT[status].label}
      role="img"
      aria-label={`Event ${status}`}
      w={10}
      h={10}
      style={{
        borderRadius: '50%',
        flex: 'none',
        background: DOT[status].color,
        boxShadow: live ? `0 0 0 3px color-mix(in srgb, ${DOT.live.color} 35%, transparent)` : undefined,
      }}
    />
  );
}
