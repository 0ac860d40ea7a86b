import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MSG } from '@stadiumcam/contract';
import { startHost, uploadPhoto, type FakeHost } from './fixtures/host.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';
import { adminApi, createTodaysEvent, today, until } from './fixtures/admin-api.ts';

const ADMIN = { username: 'admin', password: ADMIN_PASSWORD };

/** The rows of the audit table (each carries its action kind as data-action). */
const rows = (page: Page) => page.locator('[data-testid="audit-table"] tbody tr');

// Issue 32 §1 and §4: an operator's actions found again on /admin/audit.
describe('audit log', () => {
  let stack: Stack;
  let host: FakeHost;
  let slugDate: string;
  let eventId: string;
  let call: Awaited<ReturnType<typeof adminApi>>;

  beforeAll(async () => {
    stack = await startStack();
    call = await adminApi(stack.url);
    ({ slugDate, eventId } = await createTodaysEvent(call));
    host = await startHost(stack, { cameras: ['cam1'] });
  });
  afterAll(async () => {
    host?.stop();
    await stack?.close();
  });

  it('an operator powers a camera, favourites a photo and saves a template part, then finds each and filters by action', async () => {
    // The operator's actions: the power button on the monitor, a favourite and a trivia switch.
    const { page, context } = await stack.newPage({
      login: ADMIN,
      path: '/monitor',
      viewport: { width: 1280, height: 800 },
    });
    await page.getByTestId('monitor-page').waitFor();
    await page.getByTestId('tile-power-cam1').click();
    const dialog = page.getByRole('dialog');
    if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Turn off' }).click();
    await until(() => host.calls.some((c) => c.event === 'power'), 'the power command at the host');
    expect(host.calls.find((c) => c.event === 'power')?.payload).toEqual({ camera: 'cam1', on: false });
    const photo = await uploadPhoto(stack, {
      slugDate,
      userId: 'fan-1',
      camera: 'cam1',
      seatType: 'section',
      section: '101',
      row: 'A',
      seat: '1',
    });
    await call('POST', '/api/snapshots/favorite', { ids: [photo._id], favorite: true });
    await call('PATCH', '/api/events/trivia', { eventIds: [eventId], triviaEnabled: true });

    await page.goto('/admin/audit');
    await page.getByTestId('audit-table').waitFor();
    const table = page.getByTestId('audit-table');
    const power = table.locator('tr[data-action="camera.power"]');
    await power.waitFor();
    expect(await power.textContent()).toContain('admin');
    expect(await power.textContent()).toContain('Camera power');
    expect(await power.textContent()).toContain('camera: cam1');
    expect(await power.textContent()).toContain(MSG.audit.done);
    const favourite = table.locator('tr[data-action="photo.favourite"]');
    expect(await favourite.textContent()).toContain(photo._id);
    const trivia = table.locator('tr[data-action="template.trivia"]');
    expect(await trivia.textContent()).toContain(slugDate);
    expect(await trivia.textContent()).toContain('triviaEnabled: false → true');
    // Newest first: the trivia save came last.
    expect(await rows(page).first().getAttribute('data-action')).toBe('template.trivia');
    await stack.screenshot(page, 'admin-audit-1280');

    // Filter by action: only the power entries stay.
    await page.getByRole('combobox', { name: 'Action', exact: true }).click();
    await page.getByRole('option', { name: MSG.auditActions['camera.power'], exact: true }).click();
    const others = page.locator('[data-testid="audit-table"] tbody tr:not([data-action="camera.power"])');
    await expect.poll(() => others.count(), { timeout: 15_000 }).toBe(0);
    const actions = await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-action')));
    expect(actions.length).toBeGreaterThan(0);
    expect(new Set(actions)).toEqual(new Set(['camera.power']));

    // An impossible range: the server's text, nothing else changes.
    await page.getByLabel(/^From \(/).fill(`${today()}T12:00`);
    await page.getByLabel(/^To \(/).fill(`${today()}T11:00`);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByTestId('audit-error').getByText(MSG.audit.badRange).waitFor();
    await context.close();
  });
});
