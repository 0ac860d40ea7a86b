import { expect, it } from 'vitest';
import { can, P } from './permissions.ts';

it('a list of permissions needs all of them, or any one with `or`; an empty list passes (spec 3 §6)', () => {
  const needs = [P.EVENT_WRITE, P.POWER_BTN];
  expect(can([P.EVENT_WRITE, P.POWER_BTN], needs)).toBe(true);
  expect(can([P.EVENT_WRITE], needs)).toBe(false);
  expect(can([P.EVENT_WRITE], needs, { or: true })).toBe(true);
  expect(can([P.POWER_BTN], needs, { or: true })).toBe(true);
  expect(can([P.MONITOR_READ], needs, { or: true })).toBe(false);
  expect(can(new Set([P.POWER_BTN]), P.POWER_BTN)).toBe(true);
  expect(can([], [])).toBe(true);
});
