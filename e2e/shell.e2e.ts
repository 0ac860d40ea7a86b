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
    await page.route('**/api/users/session', async (route) => {
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
    await page.route('**/api/users/session', async (route) => {
      const res = await route.fetch();
      const { user } = (await res.json()) as { user: { permissions: string[]; roles: string[] } };
      await route.fulfill({
        response: res,
        json: {
          user: { ...user, permissions: [...user.permissions, 'Future:thing'], roles: [...user.roles, 'ghost-role'] },
        },
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

  it('a quiet console: the login page logs no error (no 401 on its session check), robots.txt and a description are real', async () => {
    const { page, context } = await stack.newPage({ path: '/login' });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    const checked = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/users/session');
    await page.reload();
    expect((await checked).status()).toBe(200);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    // Logged out at / too: the shell's check is quiet, and it lands on the login page.
    await page.goto('/');
    await page.waitForURL(`${stack.url}/login`);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/^StadiumCam console: /);

    const robots = await fetch(`${stack.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await robots.text()).toContain('User-agent: *\nDisallow: /');
    // The old check still answers 401 to a client without a session (spec 1 §7).
    expect((await fetch(`${stack.url}/api/users/user`)).status).toBe(401);
    await context.close();
  });
});
