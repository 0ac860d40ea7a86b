import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@stadiumcam/contract';
import { ensureTodayEventLive } from '../apps/server/src/modules/events/events.service.ts';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';

const admin = { username: 'admin', password: ADMIN_PASSWORD };
const DOCS = path.resolve(import.meta.dirname, '../docs/img');

describe('template screens reach an open attendee app', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
    await ensureTodayEventLive(stack.app.deps);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('the attendee app at 390×844, screenshotted for the docs (the template colours)', async () => {
    await mkdir(DOCS, { recursive: true });
    for (const [name, at] of [
      ['landing', '/app/'],
      ['seat', '/app/#/seat'],
      ['share', '/app/?preview=1#/share/preview'],
    ] as const) {
      const fan = await stack.newPage({ path: at, viewport: { width: 390, height: 844 } });
      await fan.page.locator(`[data-screen="${name}"]`).waitFor();
      await stack.screenshot(fan.page, `attendee-${name}`);
      await copyFile(
        path.resolve(import.meta.dirname, `artifacts/attendee-${name}.png`),
        path.join(DOCS, `attendee-${name}.png`),
      );
      await fan.context.close();
    }
  });
  it('an operator edits a text and a colour for the live event; the open app shows both without a reload', async () => {
    const fan = await stack.newPage({ path: '/app/', viewport: { width: 390, height: 844 } });
    await fan.page.getByRole('button', { name: 'Start' }).waitFor();
    // Marks the document: a reload would lose it.
    await fan.page.evaluate('window.stillHere = true');

    const op = await stack.newPage({ login: admin, path: '/template/Languages' });
    const cell = op.page.locator('[data-key="landing.start"] td[data-lang="english"]');
    await cell.dblclick();
    await op.page.getByLabel('landing.start english').fill('Smile now');
    await op.page.getByText('Text Settings').click();
    await expect.poll(() => cell.getAttribute('data-state')).toBe('modified');
    await op.page.getByTestId('update-event').click();
    await op.page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    await fan.page.getByRole('button', { name: 'Smile now' }).waitFor();

    await op.page.goto('/template/colors');
    const bg = op.page.getByLabel('Background color', { exact: true });
    await bg.fill('aa0000');
    await bg.blur();
    await op.page.getByTestId('update-event').click();
    await op.page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    await expect
      .poll(() => fan.page.evaluate('getComputedStyle(document.body).backgroundColor'), { timeout: 10_000 })
      .toBe('rgb(170, 0, 0)');
    expect(await fan.page.evaluate('window.stillHere')).toBe(true);

    await stack.screenshot(fan.page, 'attendee-live-update');
    await op.context.close();
    await fan.context.close();
  });
});
