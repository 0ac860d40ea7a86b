import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MSG } from '@stadiumcam/contract';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';

const ADMIN = { username: 'admin', password: ADMIN_PASSWORD };
const ROLE = 'operators';
const USERNAME = 'operator1';

/** Every gated route of the route table that the operators role does not open. */
const FORBIDDEN_PATHS = [
  '/admin/users',
  '/admin/roles',
  '/template/colors',
  '/template/share',
  '/template/geofence',
  '/template/Languages',
  '/template/seatOptions',
  '/template/trivia',
  '/template/graphics',
  '/template/overlays',
  '/template/slideshow',
  '/eventUsers',
  '/analytics',
  '/config/camera',
  '/config/mapping',
  '/mapping',
];

const checkbox = (page: Page, name: string) => page.getByRole('checkbox', { name, exact: true });

async function closeModals(page: Page) {
  await page.getByRole('dialog').first().waitFor({ state: 'detached' });
}

/** `/api/users` answers 500 to this method from now on (until unrouted); counts the calls. */
async function failUsersCall(page: Page, method: 'GET' | 'POST') {
  const calls = { count: 0 };
  await page.route('**/api/users', (route) => {
    if (route.request().method() !== method) return route.fallback();
    calls.count++;
    return route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' });
  });
  return calls;
}

describe('admin: users and roles', () => {
  let stack: Stack;
  let operatorPassword = '';

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('keeps the admin role locked and refuses a duplicate role name', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/admin/roles' });
    await page.getByRole('heading', { name: 'Role Editor' }).waitFor();
    await page.getByRole('button', { name: /^admin/ }).click();
    expect(await checkbox(page, 'Users').isChecked()).toBe(true);
    expect(await checkbox(page, 'Users').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Delete role' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Add new role' }).click();
    const add = page.getByRole('dialog', { name: 'Add New Role' });
    await add.getByRole('button', { name: 'Add' }).click();
    await add.getByText('Role name is required').waitFor();
    await add.getByLabel('Role name').fill('Admin');
    await add.getByRole('button', { name: 'Add' }).click();
    const error = page.getByRole('dialog', { name: 'Role already exists' });
    await error.getByText('Role name must be unique. A role with this name already exists').waitFor();
    await page.keyboard.press('Escape');
    await error.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await closeModals(page);
    await context.close();
  });

  it('creates a role whose checked child permission checks its parents, and saves it', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/admin/roles' });
    await page.getByRole('button', { name: 'Add new role' }).click();
    const add = page.getByRole('dialog', { name: 'Add New Role' });
    await add.getByLabel('Role name').fill(ROLE);
    await add.getByRole('button', { name: 'Add' }).click();
    await closeModals(page);

    await page.getByRole('heading', { name: ROLE }).waitFor();
    expect(await checkbox(page, 'Monitor:read').isChecked()).toBe(false);
    await checkbox(page, 'Magicshots:write').click();
    expect(await checkbox(page, 'Magicshots:write').isChecked()).toBe(true);
    expect(await checkbox(page, 'Monitor:read').isChecked()).toBe(true);
    // Unchecking a parent removes its children.
    await checkbox(page, 'Monitor:read').click();
    expect(await checkbox(page, 'Magicshots:write').isChecked()).toBe(false);
    await checkbox(page, 'Magicshots:write').click();
    await checkbox(page, 'Photos:write').click();

    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isEnabled()).toBe(true);
    await save.click();
    await page.getByRole('dialog').getByText(`Role "${ROLE}" has been saved`).waitFor();
    await closeModals(page);
    expect(await save.isDisabled()).toBe(true);

    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(viewport);
      await stack.screenshot(page, `admin-roles-${viewport.width}`);
    }

    // Fetched from the server afresh, the role keeps what was saved.
    await page.reload();
    await page.getByRole('button', { name: new RegExp(`^${ROLE}`) }).click();
    await page.getByRole('heading', { name: ROLE }).waitFor();
    expect(await checkbox(page, 'Magicshots:write').isChecked()).toBe(true);
    expect(await checkbox(page, 'Monitor:read').isChecked()).toBe(true);
    expect(await checkbox(page, 'Users').isChecked()).toBe(false);
    expect(await save.isDisabled()).toBe(true);
    await context.close();
  });

  it('creates a user with that role through the user modal', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/admin/users' });
    await page.getByTestId('users-table').waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Create new user' }).click();
    const modal = page.getByRole('dialog', { name: 'Create new user' });
    await modal.getByLabel('User Name').fill('short');
    await modal.getByRole('button', { name: 'Create' }).click();
    await modal.getByText('User name is required and must contain at least 6 characters.').waitFor();

    await modal.getByLabel('User Name').fill('Operator1');
    expect(await modal.getByLabel('User Name').inputValue()).toBe(USERNAME);
    await modal.getByLabel('E-mail').fill('operator1@stadiumcam.local');
    const password = modal.getByRole('textbox', { name: 'Password' });
    expect(await password.getAttribute('readonly')).not.toBeNull();
    const first = await password.inputValue();
    expect(first.length).toBeGreaterThanOrEqual(6);
    await modal.getByRole('button', { name: 'Generate password' }).click();
    operatorPassword = await password.inputValue();
    expect(operatorPassword).not.toBe(first);

    await modal.getByLabel('Roles').click();
    await page.getByRole('option', { name: ROLE }).click();
    await modal.getByText('Create new user').click();
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(viewport);
      await stack.screenshot(page, `admin-user-modal-${viewport.width}`);
    }
    await modal.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('dialog').getByText('User has been created').waitFor();
    await closeModals(page);

    const row = page.getByRole('row', { name: new RegExp(USERNAME) });
    await row.waitFor();
    expect(await row.textContent()).toContain(ROLE);
    expect(await row.textContent()).toContain('Never');

    // The same name again is refused by the existence check.
    await page.getByRole('button', { name: 'Create new user' }).click();
    await modal.getByLabel('User Name').fill(USERNAME);
    await modal.getByLabel('E-mail').fill('someone@stadiumcam.local');
    await modal.getByRole('button', { name: 'Create' }).click();
    await modal.getByText('This user name is already taken. Please try another one.').waitFor();
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await closeModals(page);

    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(viewport);
      await stack.screenshot(page, `admin-users-${viewport.width}`);
    }
    await context.close();
  });

  it('lets the new user log in with the handed-over password, gated by the role', async () => {
    const { page, context } = await stack.newPage({ login: { username: USERNAME, password: operatorPassword } });
    const menu = page.getByTestId('side-menu');
    await menu.getByRole('link', { name: 'Monitor' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Users' }).count()).toBe(0);
    expect(await menu.getByText('Admin', { exact: true }).count()).toBe(0);
    expect(await menu.getByRole('link', { name: 'Event Users' }).count()).toBe(0);

    for (const path of FORBIDDEN_PATHS) {
      await page.goto(path);
      await page.getByText('Insufficient permissions', { exact: true }).waitFor();
    }
    await page.goto('/monitor');
    await page.getByTestId('side-menu').waitFor();
    expect(await page.getByText('Insufficient permissions', { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('edits the user without changing the password, then deletes it after confirmation', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/admin/users' });
    const row = page.getByRole('row', { name: new RegExp(USERNAME) });
    await row.click();
    await page.getByRole('button', { name: 'Edit' }).click();
    const modal = page.getByRole('dialog', { name: 'Edit user' });
    expect(await modal.getByLabel('User Name').isDisabled()).toBe(true);
    expect(await modal.getByRole('textbox', { name: 'Password' }).inputValue()).toBe('');
    await modal.getByLabel('E-mail').fill('operator.one@stadiumcam.local');
    await modal.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('dialog').getByText('User has been updated').waitFor();
    await closeModals(page);
    await row.getByText('operator.one@stadiumcam.local').waitFor();

    // The password was omitted, so the old one still works.
    const other = await stack.newPage({ login: { username: USERNAME, password: operatorPassword } });
    await other.context.close();

    await row.click();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirmModal = page.getByRole('dialog', { name: 'Delete user' });
    await confirmModal.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('User has been deleted').waitFor();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });

  it('shows the spec texts for an empty list and a failed delete', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/admin/users' });
    await page.getByTestId('users-table').waitFor();
    await page.route('**/api/users/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' })
        : route.fallback(),
    );
    // The admin may not delete itself; make a victim to fail on.
    await page.getByRole('button', { name: 'Create new user' }).click();
    const modal = page.getByRole('dialog', { name: 'Create new user' });
    await modal.getByLabel('User Name').fill('victim1');
    await modal.getByLabel('E-mail').fill('victim1@stadiumcam.local');
    await modal.getByRole('button', { name: 'Create' }).click();
    await closeModals(page);
    await page.getByRole('row', { name: /victim1/ }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete user' }).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog')
      .getByText('Error trying to delete user from database. Please, try again or contact support!')
      .waitFor();
    await page.keyboard.press('Escape');
    await closeModals(page);

    await page.route('**/api/users', (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({ status: 200, contentType: 'application/json', body: '[]' })
        : route.fallback(),
    );
    await page.reload();
    await page.getByText('There are no users.').waitFor();
    await context.close();
  });

  it('a users list the server fails to give shows the "Oops..." modal, and the list comes when it answers', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/admin/users' });
    await page.getByTestId('users-table').waitFor();
    const lists = await failUsersCall(page, 'GET');
    await page.reload();
    const oops = page.getByRole('dialog', { name: MSG.common.oopsTitle });
    await oops.getByText(MSG.common.genericError).waitFor();
    // Asked again twice (a 5xx may pass), then given up: no users are shown.
    expect(lists.count).toBe(3);
    expect(await page.getByRole('row', { name: /admin@stadiumcam\.local/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await oops.waitFor({ state: 'detached' });
    await page.unroute('**/api/users');
    await page.reload();
    await page.getByRole('row', { name: /admin@stadiumcam\.local/ }).waitFor();
    await context.close();
  });

  it("shows 'Error creating the user' when the server fails the create", async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/admin/users' });
    await page.getByTestId('users-table').waitFor();
    const creates = await failUsersCall(page, 'POST');
    await page.getByRole('button', { name: 'Create new user' }).click();
    const modal = page.getByRole('dialog', { name: 'Create new user' });
    await modal.getByLabel('User Name').fill('failing1');
    await modal.getByLabel('E-mail').fill('failing1@stadiumcam.local');
    await modal.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('dialog', { name: MSG.common.oopsTitle }).getByText(MSG.users.userCreateFailed).waitFor();
    expect(creates.count).toBe(1);
    // The form stays open with what was typed; nothing was created.
    expect(await modal.getByLabel('User Name').inputValue()).toBe('failing1');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: MSG.common.oopsTitle }).waitFor({ state: 'detached' });
    await page.unroute('**/api/users');
    await page.reload();
    await page.getByTestId('users-table').waitFor();
    expect(await page.getByRole('row', { name: /failing1/ }).count()).toBe(0);
    await context.close();
  });

  it("the monitor and the header's camera list say 'There are no available cameras' without a camera host", async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/monitor' });
    await page.getByTestId('monitor-page').waitFor();
    await page.getByTestId('no-cameras').waitFor();
    expect(await page.getByTestId('no-cameras').textContent()).toBe(MSG.cameras.noCameras);
    await page.getByTestId('camera-indicator').click();
    await page.getByTestId('camera-indicator-list').getByText(MSG.cameras.noCameras, { exact: true }).waitFor();
    await context.close();
  });

  it('shows the role editor read-only without Roles:write', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/admin/roles' });
    await page.getByRole('button', { name: 'Add new role' }).click();
    const add = page.getByRole('dialog', { name: 'Add New Role' });
    await add.getByLabel('Role name').fill('viewers');
    await add.getByRole('button', { name: 'Add' }).click();
    await closeModals(page);
    await checkbox(page, 'Roles:read').click();
    await checkbox(page, 'Users').click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await closeModals(page);

    await page.goto('/admin/users');
    await page.getByRole('button', { name: 'Create new user' }).click();
    const modal = page.getByRole('dialog', { name: 'Create new user' });
    await modal.getByLabel('User Name').fill('viewer1');
    await modal.getByLabel('E-mail').fill('viewer1@stadiumcam.local');
    const password = await modal.getByRole('textbox', { name: 'Password' }).inputValue();
    await modal.getByLabel('Roles').click();
    await page.getByRole('option', { name: 'viewers' }).click();
    await modal.getByText('Create new user').click();
    await modal.getByRole('button', { name: 'Create' }).click();
    await closeModals(page);
    await context.close();

    const viewer = await stack.newPage({ login: { username: 'viewer1', password }, path: '/admin/roles' });
    await viewer.page.getByRole('heading', { name: 'Role Editor' }).waitFor();
    await viewer.page.getByText('Read only').waitFor();
    await viewer.page.getByRole('button', { name: /^viewers/ }).click();
    expect(await checkbox(viewer.page, 'Roles:read').isChecked()).toBe(true);
    expect(await checkbox(viewer.page, 'Roles:read').isDisabled()).toBe(true);
    for (const name of ['Save', 'Add new role', 'Delete role'])
      expect(await viewer.page.getByRole('button', { name }).count()).toBe(0);
    await viewer.context.close();
  });

  it('deletes a role after confirmation and selects the first role again', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/admin/roles' });
    await page.getByRole('button', { name: /^viewers/ }).click();
    await page.getByRole('heading', { name: 'viewers' }).waitFor();
    await page.getByRole('button', { name: 'Delete role' }).click();
    const confirmModal = page.getByRole('dialog', { name: 'Delete role' });
    await confirmModal.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'admin' }).waitFor();
    await page.getByRole('button', { name: /^viewers/ }).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('button', { name: /^operators/ }).waitFor();
    expect(await page.getByRole('button', { name: /^viewers/ }).count()).toBe(0);
    await context.close();
  });

  it('the users table labels Created at and Last login, both in the console’s time format with am/pm and the zone', async () => {
    const { page, context } = await stack.newPage({ login: ADMIN, path: '/admin/users' });
    const table = page.getByTestId('users-table');
    await table.getByRole('columnheader', { name: 'Created at' }).waitFor();
    await table.getByRole('columnheader', { name: 'Last login' }).waitFor();
    const heads = await table.getByRole('columnheader').allInnerTexts();
    const row = table.getByRole('row').filter({ has: page.getByRole('radio', { name: 'Select admin', exact: true }) });
    const cells = await row.getByRole('cell').allInnerTexts();
    const at = (label: string) => cells[heads.findIndex((h) => h.trim() === label)].trim();
    // "25/11/2026 04:09:18 am CST": DD/MM/YYYY hh:mm:ss, am/pm, the venue zone's label.
    const FORMAT = /^\d{2}\/\d{2}\/\d{4} (0\d|1[0-2]):\d{2}:\d{2} (am|pm) (CST|CDT)$/;
    expect(at('Created at')).toMatch(FORMAT);
    expect(at('Last login')).toMatch(FORMAT);
    await context.close();
  });
});
