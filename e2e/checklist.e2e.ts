import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@stadiumcam/contract';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';
import { goLiveDialog } from './fixtures/go-live.ts';
import { expectNoSeriousA11yViolations } from './fixtures/axe.ts';

const ADMIN = { username: 'admin', password: ADMIN_PASSWORD };

/**
 * The pre-live checklist (issue 32 §2, §4) with the simulated venue: a camera powered off makes
 * going live show that item failing with its link; the link opens the screen that fixes it; going
 * live anyway needs the second confirmation.
 */
describe('pre-live checklist', () => {
  let stack: Stack;
  let slugDate = '';

  beforeAll(async () => {
    stack = await startStack({ simulator: { camerasPerHost: 2, attendeeRate: 0, fps: 3 } });
    // The simulator starts today's event live, as `npm start` does: back to pre for the operator.
    const { page, context } = await stack.newPage({ login: ADMIN });
    const current = (await (await page.request.get('/api/events/stadiumcam')).json()) as { slugDate: string };
    slugDate = current.slugDate;
    const res = await page.request.put('/api/events', {
      headers: { Origin: stack.url },
      data: { slugDate, data: { eventStatus: 'pre' } },
    });
    expect(res.status()).toBe(200);
    await context.close();
    // The shared 2-core box runs several suites at once: the venue's start can take minutes.
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('a camera off fails with its link; the link opens the monitor; go live anyway after asking again', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN });
    // cam2 off from the header's power menu, as an operator would (the event is pre: no question).
    await page.getByRole('button', { name: 'Power menu' }).click();
    await page.getByTestId('camera-power-section').getByRole('switch', { name: 'cam2' }).click();
    await page.locator('[data-testid="camera-indicator"]', { hasText: '1 Down' }).waitFor();
    await page.keyboard.press('Escape');

    // From the calendar: today's card → Go live → the checklist, computed by the server.
    await page.locator(`[data-testid=event-card][data-slugdate="${slugDate}"]`).click();
    await page.getByRole('menuitem', { name: 'Go live' }).click();
    const check = goLiveDialog(page);
    await check.loaded();
    const cameras = check.item('cameras');
    expect(await cameras.getAttribute('data-state')).toBe('fail');
    expect(await cameras.getByTestId('checklist-reason').textContent()).toBe(MSG.checklist.camerasOff('cam2'));
    expect(await check.dialog.getByRole('button', { name: MSG.checklist.goLive, exact: true }).count()).toBe(0);
    await stack.screenshot(page, 'checklist-dialog-1280');

    // Its link opens the screen that fixes it; nothing went live.
    await cameras.getByRole('link', { name: `${MSG.checklist.fix} ${MSG.checklist.cameras}` }).click();
    await page.waitForURL('**/monitor');
    await check.dialog.waitFor({ state: 'detached' });
    await page.getByTestId('camera-off-cam2').waitFor();
    expect(await page.locator('[data-testid=header-event] [data-testid=status-dot]').getAttribute('data-state')).toBe(
      'semi-active',
    );

    // From the monitor's status radio: the same dialog; 'Go live anyway…' asks once more.
    await page.getByTestId('monitor-page').getByRole('radio', { name: 'Live' }).click();
    await check.loaded();
    expect(await check.item('cameras').getAttribute('data-state')).toBe('fail');
    // Checked over the monitor: on the calendar axe also measures the cards behind the overlay.
    await expectNoSeriousA11yViolations(page, 'pre-live checklist dialog');
    await check.dialog.getByRole('button', { name: MSG.checklist.goLiveAnyway }).click();
    const confirm = check.dialog.getByTestId('go-live-confirm');
    await confirm.getByText(MSG.checklist.confirmAnyway(1), { exact: false }).waitFor();
    // Back keeps the event as it was; the second ask is still needed.
    await confirm.getByRole('button', { name: MSG.checklist.back }).click();
    await confirm.waitFor({ state: 'detached' });
    // By keyboard: Enter on 'Go live anyway…', the answer takes the focus, Enter again.
    await check.dialog.getByRole('button', { name: MSG.checklist.goLiveAnyway }).focus();
    await page.keyboard.press('Enter');
    const yes = check.dialog.getByRole('button', { name: MSG.checklist.confirmGoLive });
    await yes.waitFor();
    await page.waitForFunction(
      (text) => (globalThis as any).document.activeElement?.textContent === text,
      MSG.checklist.confirmGoLive,
    );
    await page.keyboard.press('Enter');
    await check.dialog.waitFor({ state: 'detached' });
    await page.locator('[data-testid=header-event] [data-testid=status-dot][data-state=active]').waitFor();
    const event = (await (await page.request.get(`/api/event/${slugDate}`)).json()) as { eventStatus: string };
    expect(event.eventStatus).toBe('live');
    await context.close();
  }, 300_000);
});
