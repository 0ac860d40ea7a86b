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

  it('shows the not-found page for an unknown route', async () => {
    const { page, context } = await stack.newPage({
      login: { username: 'admin', password: ADMIN_PASSWORD },
      path: '/no/such/page',
    });
    await page.getByText('Sorry, camera repair!, The page is not found.').waitFor();
    await page.getByRole('link', { name: 'Return to Home Page' }).click();
    await page.waitForURL(`${stack.url}/`);
    await stack.screenshot(page, 'shell-calendar');
    await context.close();
  });
});
