import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestApp } from '../../test/harness.ts';

/** The mails in the test outbox, oldest first: recipient, subject and decoded text. */
export async function readOutbox(t: TestApp): Promise<{ file: string; to: string; subject: string; text: string }[]> {
  const dir = t.config.outboxDir;
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(
    files.map(async (file) => {
      const raw = await readFile(path.join(dir, file), 'utf8');
      const split = raw.indexOf('\n\n');
      const head = raw.slice(0, split);
      const body = raw.slice(split + 2);
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
      const text = /quoted-printable/i.test(header('Content-Transfer-Encoding'))
        ? body
            .replace(/=\r?\n/g, '')
            .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
        : body;
      return { file, to: header('To'), subject: header('Subject'), text };
    }),
  );
}

/** Mails to this address that arrived after `known` (a list of file names already seen). */
export async function newMailsTo(t: TestApp, to: string, known: Set<string>) {
  return (await readOutbox(t)).filter((m) => !known.has(m.file) && m.to.includes(to));
}

/**
 * A JSON request from a chosen client address: the throttles count per address, and the
 * harness's own calls all come from 127.0.0.1, which these tests must not lock out.
 */
export async function postFrom(
  t: TestApp,
  ip: string,
  url: string,
  payload: unknown,
  cookie?: string,
): Promise<{ status: number; body: any; headers: Record<string, unknown>; cookie?: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    headers: {
      host: 'localhost',
      origin: 'http://localhost',
      'content-type': 'application/json',
      ...(cookie ? { cookie } : {}),
    },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  const sid = res.cookies.find((c) => c.name === 'sid');
  return {
    status: res.statusCode,
    body: res.body ? JSON.parse(res.body) : undefined,
    headers: res.headers,
    cookie: sid?.value ? `sid=${sid.value}` : undefined,
  };
}
