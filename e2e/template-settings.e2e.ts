import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@stadiumcam/contract';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';

const admin = { username: 'admin', password: ADMIN_PASSWORD };

/** The master template's stored slideshow settings, as the server has them. */
async function templateSlideshow(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(async () => {
    const res = await fetch('/api/event/stadiumcam');
    return ((await res.json()) as { slideshow?: Record<string, unknown> }).slideshow ?? {};
  });
}

/** A form field's input by its label (Mantine labels carry a required asterisk). */
const field = (page: Page, label: string) => page.locator('input').and(page.getByLabel(label));

async function choose(page: Page, label: string, option: string) {
  await field(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Slideshow settings and Export/Import (spec 2 Slideshow, Export/Import, §5, §9). */
describe('template: slideshow settings, export and import', () => {
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    // No events: the master template is the selection.
    stack = await startStack();
    dir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-amp-'));
  });
  afterAll(async () => {
    await stack?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('saves the four slideshow settings with their option lists, and links to /slideshow', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/template/slideshow' });
    const form = page.getByTestId('slideshow-settings');
    await form.waitFor();
    expect(await field(page, 'Play interval').inputValue()).toBe('5 s');
    expect(await field(page, 'Slide duration').inputValue()).toBe('1000 ms');
    expect(await field(page, 'Transition').inputValue()).toBe('ease-in-out');
    await field(page, 'Play interval').click();
    expect(await page.getByRole('option').allTextContents()).toEqual(
      Array.from({ length: 10 }, (_, i) => `${i + 1} s`),
    );
    await page.getByRole('option', { name: '3 s', exact: true }).click();
    await field(page, 'Slide duration').click();
    expect(await page.getByRole('option').allTextContents()).toEqual([
      '200 ms',
      '400 ms',
      '600 ms',
      '800 ms',
      '1000 ms',
    ]);
    await page.getByRole('option', { name: '400 ms', exact: true }).click();
    await field(page, 'Transition').click();
    expect(await page.getByRole('option').allTextContents()).toEqual([
      'ease',
      'linear',
      'ease-in',
      'ease-out',
      'ease-in-out',
    ]);
    await page.getByRole('option', { name: 'linear', exact: true }).click();
    expect(await page.getByTestId('slideshow-link').getAttribute('href')).toBe('/slideshow');
    await stack.screenshot(page, 'template-slideshow-1280');

    await page.getByTestId('update-event').click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    expect(await templateSlideshow(page)).toMatchObject({
      transitionTime: 3000,
      transitionDuration: 400,
      animation: 'linear',
    });
    await context.close();
  });

  it('exports the selection as an .amp and imports it back; refuses a file that is not one', async () => {
    const { page, context } = await stack.newPage({ login: admin, path: '/template/export' });
    await page.getByRole('button', { name: /^Export selected/ }).waitFor();
    // Without a live event, every event may be exported.
    expect(await page.getByRole('button', { name: 'Export all events' }).isDisabled()).toBe(true); // no dated events
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export selected (1)' }).click();
    const amp = path.join(dir, 'template.amp');
    await (await downloading).saveAs(amp);
    expect((await readFile(amp)).subarray(0, 2).toString()).toBe('PK');
    await stack.screenshot(page, 'template-export-1280');

    // Change the template, then import the file: the exported settings come back.
    await page.goto('/template/slideshow');
    await choose(page, 'Play interval', '7 s');
    await page.getByTestId('update-event').click();
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    expect(await templateSlideshow(page)).toMatchObject({ transitionTime: 7000 });

    await page.goto('/template/export');
    const choosing = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import Event' }).click();
    await (await choosing).setFiles(amp);
    await page.getByText(MSG.template.eventSuccessfullyUpdated).waitFor();
    expect(await templateSlideshow(page)).toMatchObject({ transitionTime: 3000, animation: 'linear' });

    const text = path.join(dir, 'notes.txt');
    await writeFile(text, 'not an archive');
    const again = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import Event' }).click();
    await (await again).setFiles(text);
    await page.getByTestId('error-modal').getByText(MSG.templateParts.invalidAmp).waitFor();
    expect(await templateSlideshow(page)).toMatchObject({ transitionTime: 3000 });
    await context.close();
  });
});
