import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { LONG_SUCCESS_MODAL_MS, MSG, SUCCESS_MODAL_MS } from '@stadiumcam/contract/lite';

// The modal manager needs a rendered provider; its open and close calls are what the timer drives.
const modals = vi.hoisted(() => ({ open: vi.fn(() => 'modal-1'), close: vi.fn() }));
vi.mock('@mantine/modals', () => ({ modals }));
const { showSuccessModal } = await import('./feedback.tsx');

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  modals.open.mockClear();
  modals.close.mockClear();
});

it('a success modal closes after 1500 ms (spec 1 §4, §9)', () => {
  expect(SUCCESS_MODAL_MS).toBe(1500);
  showSuccessModal('Event has been updated');
  expect(modals.open).toHaveBeenCalledWith(expect.objectContaining({ title: MSG.common.successTitle }));
  vi.advanceTimersByTime(1499);
  expect(modals.close).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(modals.close).toHaveBeenCalledWith('modal-1');
});

it('a long success modal (camera configs, slideshow) closes after 5 s (DESIGN §6)', () => {
  showSuccessModal('Event has been updated', { ms: LONG_SUCCESS_MODAL_MS });
  vi.advanceTimersByTime(4999);
  expect(modals.close).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(modals.close).toHaveBeenCalledWith('modal-1');
});
