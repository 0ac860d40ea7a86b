import { expect, it } from 'vitest';
import { NOTIFICATIONS_PAGE_SIZE } from '@stadiumcam/contract';
import { nextNotificationsOffset } from './notifications.hooks.ts';

const page = (n: number) => Array.from({ length: n }, (_, i) => i);

it('pages notifications by 20: the offset steps by the page size, a shorter page means no more (spec 3 §9)', () => {
  expect(NOTIFICATIONS_PAGE_SIZE).toBe(20);
  expect(nextNotificationsOffset(page(20), [page(20)])).toBe(20);
  expect(nextNotificationsOffset(page(20), [page(20), page(20)])).toBe(40);
  expect(nextNotificationsOffset(page(19), [page(20), page(19)])).toBeUndefined();
  expect(nextNotificationsOffset(page(0), [page(0)])).toBeUndefined();
});
