import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';

describe('console shell', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('redirects to /login when logged out and shows the field errors', async () => {
    const { page, context } = await stack.newPage({ path: '/admin/users' });
    await page.waitForURL(`${stack.url}/login`);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Username is required').waitFor();
    expect(page.url()).toBe(`${stack.url}/login`);
    await context.close();
  });

  it('shows the splash while the session check runs', async () => {
    const context = await stack.browser.newContext({ baseURL: stack.url, serviceWorkers: 'block' });
    const page = await context.newPage();
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/users/user', async (route) => {
      await held;
      await route.fallback();
    });
    await page.goto('/');
    await page.getByTestId('splash').waitFor();
    release();
    await page.waitForURL(`${stack.url}/login`);
    await context.close();
  });

  it('shows the admin every side-menu entry and prints with Ctrl+P', async () => {
    const { page, context } = await stack.newPage({ login: { username: 'admin', password: ADMIN_PASSWORD } });
    const menu = page.getByTestId('side-menu');
    for (const name of ['Calendar', 'Monitor', 'Album', 'Analytics', 'Event Users', 'Mapping'])
      await menu.getByRole('link', { name, exact: true }).first().waitFor();
    await menu.getByText('Admin', { exact: true }).click();
    await menu.getByRole('link', { name: 'Users', exact: true }).click();
    await page.waitForURL(`${stack.url}/admin/users`);
    await menu.getByRole('link', { name: 'Roles', exact: true }).click();
    await page.waitForURL(`${stack.url}/admin/roles`);
    for (const group of ['Template', 'Config']) await menu.getByText(group, { exact: true }).waitFor();

    // The e2e code has no DOM types: the page-side code travels as text.
    await page.evaluate('window.printed = 0; window.print = () => { window.printed += 1; };');
    await page.keyboard.press('Control+P');
    expect(await page.evaluate('window.printed')).toBe(1);
    await context.close();
  });

  it('fetches the roles list after login; an unknown permission or role only warns in the browser console (spec 1 §6)', async () => {
    const { page, context } = await stack.newPage({ login: { username: 'admin', password: ADMIN_PASSWORD } });
    // A newer server: the session names a permission and a role this console does not know.
    await page.route('**/api/users/user', async (route) => {
      const res = await route.fetch();
      const user = (await res.json()) as { permissions: string[]; roles: string[] };
      await route.fulfill({
        response: res,
        json: { ...user, permissions: [...user.permissions, 'Future:thing'], roles: [...user.roles, 'ghost-role'] },
      });
    });
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    const rolesAsked = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/roles');
    await page.reload();
    await rolesAsked;
    await page.getByRole('link', { name: 'Calendar' }).waitFor();
    await expect.poll(() => warnings).toContain('Unknown role ghost-role');
    expect(warnings).toContain('Unknown permission Future:thing');
    await context.close();
  });

  it('shows the not-found page for an unknown route', async () => {
    const { page, context } = await stack.newPage({
      login: { username: 'admin', password: ADMIN_PASSWORD },
      path: '/no/such/page',
    });
    await page.getByText('Sorry, camera repair!, The page is not found.').waitFor();
    await page.getByRole('img', { name: 'Not Found' }).waitFor();
    await stack.screenshot(page, 'shell-not-found');
    await page.getByRole('link', { name: 'Return to Home Page' }).click();
    await page.waitForURL(`${stack.url}/`);
    await stack.screenshot(page, 'shell-calendar');
    await context.close();
  });
});
