import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startStack, type Stack } from './fixtures/stack.ts';
import { fillLogin } from './fixtures/login.ts';

const ADMIN_EMAIL = 'admin@stadiumcam.local';

/** The readable text of an .eml file (quoted-printable soft breaks and escapes undone). */
function mailText(raw: string): string {
  if (!/quoted-printable/i.test(raw)) return raw;
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

async function waitForMails(stack: Stack, count: number): Promise<string[]> {
  for (let i = 0; i < 100; i++) {
    const mails = await stack.outbox();
    if (mails.length >= count) return mails.map(mailText);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`expected ${count} mails in the outbox`);
}

describe('login, logout and password reset', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('asks for both fields and sends nothing while one is empty', async () => {
    const { page, context } = await stack.newPage({ path: '/login' });
    let loginCalls = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/users/login')) loginCalls++;
    });
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password is required').waitFor();

    await page.getByLabel('Username', { exact: true }).fill('admin');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Password is required').waitFor();
    expect(await page.getByText('Username is required').count()).toBe(0);
    expect(loginCalls).toBe(0);
    expect(page.url()).toBe(`${stack.url}/login`);
    await context.close();
  });

  it('shows the login failure modal for a wrong password and keeps the fields', async () => {
    const { page, context } = await stack.newPage({ path: '/login' });
    await fillLogin(page, 'admin', 'not-the-password');
    const modal = page.getByRole('dialog');
    await modal.getByText('Something went wrong, Please try again').waitFor();
    expect(await page.getByLabel('Username', { exact: true }).inputValue()).toBe('admin');
    expect(page.url()).toBe(`${stack.url}/login`);
    await context.close();
  });

  it('logs the admin in (user name lower-cased), lands on / and logs out through the header menu', async () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 1920, height: 1080 },
    ]) {
      const { page, context } = await stack.newPage({ path: '/login', viewport });
      await page.getByRole('button', { name: 'Login' }).waitFor();
      await stack.screenshot(page, `auth-login-${viewport.width}`);
      await context.close();
    }

    const { page, context } = await stack.newPage({ path: '/login' });
    await fillLogin(page, 'ADMIN', ADMIN_PASSWORD);
    await page.waitForURL(`${stack.url}/`);
    await page.getByTestId('side-menu').waitFor();

    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await page.waitForURL(`${stack.url}/login`);
    // The session is gone on the server too: the shell sends us back to /login.
    await page.goto('/admin/users');
    await page.waitForURL(`${stack.url}/login`);
    await context.close();
  });

  it('validates the reset request and shows the server error under the field', async () => {
    const { page, context } = await stack.newPage({ path: '/login' });
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${stack.url}/reset_password`);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('E-mail is required').waitFor();
    await page.getByLabel('E-mail').fill('not-an-address');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Invalid e-mail address').waitFor();
    await stack.screenshot(page, 'auth-reset-request');

    await page.route('**/api/users/resetPasswordEmail', (route) =>
      route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ error: 'Slow down' }) }),
    );
    await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('dialog').getByText('Something went wrong, please try again').waitFor();
    await page.getByText('Slow down').waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe(ADMIN_EMAIL);
    await context.close();
  });

  it('shows the server error in a modal for a bad reset token', async () => {
    const { page, context } = await stack.newPage({ path: '/reset_password/not-a-real-token' });
    await page.getByRole('heading', { name: 'Confirm password reset' }).waitFor();
    await page.getByRole('button', { name: 'Reset' }).click();
    const modal = page.getByRole('dialog');
    await modal.waitFor();
    expect(await modal.textContent()).toContain('Oops...');
    expect(await page.getByText('New password has been sent, please check your email').count()).toBe(0);
    await context.close();
  });

  it('resets the admin password through the mails and logs in with the new one', async () => {
    const before = (await stack.outbox()).length;
    const { page, context } = await stack.newPage({ path: '/reset_password' });
    await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('An email with your new login credentials will be sent to you').waitFor();
    await stack.screenshot(page, 'auth-reset-request-sent');

    const [linkMail] = (await waitForMails(stack, before + 1)).slice(before);
    expect(linkMail).toContain(ADMIN_EMAIL);
    const link = /https?:\/\/\S+\/reset_password\/[\w-]+/.exec(linkMail)?.[0];
    expect(link).toBeDefined();
    expect(link!.startsWith(stack.url)).toBe(true);

    await page.goto(link!);
    await page.getByRole('heading', { name: 'Confirm password reset' }).waitFor();
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByText('New password has been sent, please check your email').waitFor();
    await stack.screenshot(page, 'auth-reset-confirmed');

    const [passwordMail] = (await waitForMails(stack, before + 2)).slice(before + 1);
    const password = /^Password: (\S+)$/m.exec(passwordMail)?.[1];
    expect(password).toBeDefined();

    await page.getByRole('link', { name: 'Back to Login' }).click();
    await page.waitForURL(`${stack.url}/login`);
    // The old password no longer opens the console; the mailed one does.
    await fillLogin(page, 'admin', ADMIN_PASSWORD);
    await page.getByRole('dialog').getByText('Something went wrong, Please try again').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await fillLogin(page, 'admin', password!);
    await page.waitForURL(`${stack.url}/`);
    await context.close();
  });
});
