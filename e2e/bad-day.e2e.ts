import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@stadiumcam/contract';
import { events } from '../apps/server/src/db/schema/index.ts';
import { ensureTodayEventLive } from '../apps/server/src/modules/events/events.service.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';
import { makePhoto } from '../apps/server/src/test/factories.ts';
import { logIn } from './fixtures/login.ts';
import { albumPage } from './fixtures/album.ts';

const admin = { username: 'admin', password: ADMIN_PASSWORD };

/** The console on a bad day (issue 16 point 12, spec 1 §8, spec 3 §4 and §6). */
describe('the console on a bad day', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('shows the not-found page without a session: no access check', async () => {
    const { page, context } = await stack.newPage({ path: '/no/such/page' });
    await page.getByText(MSG.common.notFound).waitFor();
    expect(page.url()).toBe(`${stack.url}/no/such/page`);
    // Its way home leads a logged-out visitor to the login.
    await page.getByRole('link', { name: MSG.common.returnHome }).click();
    await page.waitForURL(`${stack.url}/login`);
    await context.close();
  });

  it('a template that fails to load asks to load it again; a missing template goes to the login', async () => {
    // No events yet: the master template is the selection, and the template screens load it.
    const { page, context } = await stack.newPage({ login: admin });
    await page.route('**/api/event/stadiumcam', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"database down"}' }),
    );
    await page.goto('/template/colors');
    const modal = page.getByRole('dialog', { name: MSG.events.templateLoadTitle });
    await modal.getByText(MSG.events.templateLoadRetry).waitFor();
    await page.unroute('**/api/event/stadiumcam');
    await stack.screenshot(page, 'template-load-retry');
    await modal.getByRole('button', { name: 'OK' }).click();
    await modal.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('update-event').isEnabled()).toBe(true);

    await page.route('**/api/event/stadiumcam', (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ error: MSG.events.noTemplate }),
      }),
    );
    await page.reload();
    const missing = page.getByRole('dialog', { name: MSG.events.noTemplate });
    await missing.getByText(MSG.events.noTemplateText).waitFor();
    await missing.getByRole('button', { name: 'OK' }).click();
    // /login sends a logged-in operator on to the calendar.
    await page.waitForURL(`${stack.url}/`);
    await context.close();
  });

  it('offline, the console says so, reloads from its service worker and recovers when the network returns', async () => {
    const { page, context } = await stack.newPage({ login: admin, serviceWorkers: 'allow' });
    const scope = await page.evaluate('navigator.serviceWorker.ready.then((r) => r.scope)');
    expect(scope).toBe(`${stack.url}/`);
    // Controlled from now on: the page and its files pass through the worker.
    await page.reload();
    await page.getByRole('link', { name: 'Calendar' }).waitFor();

    await context.setOffline(true);
    await page.getByTestId('offline-banner').getByText(MSG.common.offline).waitFor();
    await page.reload();
    await page.getByTestId('offline-banner').waitFor();
    await stack.screenshot(page, 'console-offline');

    await context.setOffline(false);
    await page.getByRole('link', { name: 'Calendar' }).waitFor();
    await page.getByTestId('offline-banner').waitFor({ state: 'detached' });
    await context.close();
  });

  it('a missing or broken service worker script: the old worker goes, the page reloads, the error is logged', async () => {
    const { page, context } = await stack.newPage({ login: admin, serviceWorkers: 'allow' });
    await page.evaluate('navigator.serviceWorker.ready');
    const registrations = () => page.evaluate('navigator.serviceWorker.getRegistrations().then((r) => r.length)');
    expect(await registrations()).toBe(1);
    // The deployment lost /sw.js: the server answers the console's page (HTML) in its place.
    const dist = stack.app.deps.config.webDist;
    const moved = (await readdir(dist)).filter((f) => /^sw\.js(\.br|\.gz)?$/.test(f));
    const aside = await mkdtemp(path.join(os.tmpdir(), 'sw-aside-'));
    try {
      for (const f of moved) await rename(path.join(dist, f), path.join(aside, f));
      let loads = 0;
      page.on('load', () => (loads += 1));
      await page.reload();
      await expect.poll(registrations).toBe(0);
      // Our reload, then the console's own after unregistering.
      await expect.poll(() => loads).toBeGreaterThanOrEqual(2);
      await page.getByRole('link', { name: 'Calendar' }).waitFor();

      // A script that does not run: registration fails and says so in the console.
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      await writeFile(path.join(dist, 'sw.js'), 'this is not a service worker {');
      await page.reload();
      await expect.poll(() => errors.some((e) => e.includes('Service worker registration failed'))).toBe(true);
      expect(await registrations()).toBe(0);
    } finally {
      await rm(path.join(dist, 'sw.js'), { force: true });
      for (const f of moved) await rename(path.join(aside, f), path.join(dist, f));
      await rm(aside, { recursive: true, force: true });
      await context.close();
    }
  });

  it('a console socket that was down for 10 s catches up over REST: no photo missed', async () => {
    await ensureTodayEventLive(stack.app.deps);
    const [live] = await stack.app.deps.db
      .select({ slugDate: events.slugDate })
      .from(events)
      .where(and(eq(events.eventStatus, 'live'), eq(events.template, false)));

    const context = await stack.browser.newContext({
      baseURL: stack.url,
      viewport: { width: 1280, height: 800 },
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    // The console's websocket, cut by the test: closed, and refused while `down`.
    let down = false;
    let connects = 0;
    const open: { close: () => Promise<void> }[] = [];
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      if (down) return void ws.close();
      connects++;
      ws.connectToServer();
      open.push(ws);
    });
    await login(page, stack);
    await page.goto('/album');
    const count = albumPage(page).count('all');
    await expect.poll(() => count.textContent(), { timeout: 15_000 }).toBe('0');
    expect(connects).toBeGreaterThan(0);

    // The cut may land before the first connect completed: the connect that finally comes
    // catches up all the same.
    down = true;
    await Promise.all(open.splice(0).map((ws) => ws.close()));
    for (let i = 0; i < 3; i++) await addPhoto(stack, live.slugDate);
    // The server pushed nothing the console heard; after ten seconds the network comes back.
    await new Promise((r) => setTimeout(r, 10_000));
    const before = connects;
    down = false;
    // A try refused while down may only end with socket.io's 20 s connection time-out.
    await expect.poll(() => connects, { timeout: 45_000 }).toBeGreaterThan(before);
    await expect.poll(() => count.textContent(), { timeout: 15_000 }).toBe('3');
    await context.close();
  }, 120_000);
});

const login = (page: Page, stack: Stack) => logIn(page, stack.url, admin);

/** A photo stored without telling any console: only a REST call can see it. */
async function addPhoto(stack: Stack, slugDate: string) {
  const id = randomUUID();
  const uri = `/media/${slugDate}/${id}/raw.jpg`;
  await makePhoto(stack.app.deps.db, {
    id,
    slug: 'stadiumcam',
    slugDate,
    userId: `fan-${id.slice(0, 6)}`,
    camera: 'cam1',
    section: '101',
    row: '1',
    seat: '1',
    date: new Date(),
    thumbUri: uri,
    smallUri: uri,
    rawCroppedUri: uri,
    sharedUri: uri,
    favorite: false,
    magicshot: false,
    postObj: [],
    sharedCount: 0,
    shareSources: [],
    faces: null,
  });
}
