import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESLint, Linter } from 'eslint';

/*
 * The boundaries of docs/architecture.md are kept by eslint.config.js (`npm run check`). Each
 * case lints one deliberate violation with the rule options the real config gives that file.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

async function problems(file: string, code: string): Promise<string[]> {
  const config = (await eslint.calculateConfigForFile(path.join(root, file))) as Linter.Config;
  const rule = config.rules?.['no-restricted-imports'];
  if (!rule) return [];
  const linter = new Linter({ configType: 'flat' });
  return linter
    .verify(code, [{ languageOptions: { sourceType: 'module' }, rules: { 'no-restricted-imports': rule } }])
    .map((m) => m.message);
}

describe('lint boundaries', () => {
  it('drizzle only in *.repository.ts and db/**', async () => {
    const code = "import { eq } from 'drizzle-orm';\nimport { events } from '../../db/schema/index.ts';\n";
    expect(await problems('apps/server/src/modules/events/events.service.ts', code)).toHaveLength(2);
    expect(await problems('apps/server/src/modules/events/events.bootstrap.ts', code)).toHaveLength(2);
    expect(await problems('apps/server/src/modules/events/events.repository.ts', code)).toEqual([]);
    expect(await problems('apps/server/src/db/client.ts', code)).toEqual([]);
  });

  it('no fastify in *.service.ts; routes may', async () => {
    const code = "import Fastify from 'fastify';\n";
    const found = await problems('apps/server/src/modules/devices/ingest.service.ts', code);
    expect(found).toEqual([expect.stringContaining('HTTP stays in *.routes.ts')]);
    expect(await problems('apps/server/src/modules/devices/devices.routes.ts', code)).toEqual([]);
  });

  it('plugins import no modules', async () => {
    const code = "import { loadSessionUser } from '../modules/auth/auth.sessions.ts';\n";
    expect(await problems('apps/server/src/plugins/socket.ts', code)).toHaveLength(1);
  });

  it('the console ui/ never imports modules/', async () => {
    const code = "import { useEvents } from '../modules/events/events.hooks.ts';\n";
    expect(await problems('apps/web/src/ui/feedback.tsx', code)).toHaveLength(1);
    expect(await problems('apps/web/src/modules/users/users.page.tsx', code)).toEqual([]);
  });

  it("an area imports another area's index.ts only, never its inner files", async () => {
    const inner = "import { hashPassword } from '../auth/auth.service.ts';\n";
    const face = "import { hashPassword } from '../auth/index.ts';\n";
    for (const file of ['users/users.service.ts', 'users/users.bootstrap.ts', 'analytics/analytics.repository.ts']) {
      const found = await problems(`apps/server/src/modules/${file}`, inner);
      expect(found, file).toEqual([expect.stringContaining("Another area's inner file")]);
      expect(await problems(`apps/server/src/modules/${file}`, face), file).toEqual([]);
    }
    // Its own files and the shared ones stay open.
    const own = "import { x } from './auth.repository.ts';\nimport { AppError } from '../../errors.ts';\n";
    expect(await problems('apps/server/src/modules/auth/auth.service.ts', own)).toEqual([]);
    // The modules list and the app reach an area through its index.ts too.
    expect(
      await problems('apps/server/src/modules/index.ts', "import { r } from './auth/auth.module.ts';\n"),
    ).toHaveLength(1);
    expect(await problems('apps/server/src/modules/index.ts', "import { r } from './auth/index.ts';\n")).toEqual([]);
    expect(
      await problems('apps/server/src/app.ts', "import { r } from './modules/auth/auth.sessions.ts';\n"),
    ).toHaveLength(1);
    expect(await problems('apps/server/src/app.ts', "import { r } from './plugins/routes.ts';\n")).toEqual([]);
    // Tests may set up through any area's inner files.
    expect(await problems('apps/server/src/modules/users/users.test.ts', inner)).toEqual([]);
  });

  it('the contract imports nothing from the apps', async () => {
    const code = "import { AppError } from '../../../apps/server/src/errors.ts';\n";
    expect(await problems('packages/contract/src/route.ts', code)).toHaveLength(1);
  });

  it('the contract imports no app package, whole or by subpath', async () => {
    for (const from of [
      '@stadiumcam/server',
      '@stadiumcam/server/src/errors.ts',
      '@stadiumcam/web',
      '@stadiumcam/web/src/api.ts',
      '@stadiumcam/venue-sim',
      '@stadiumcam/venue-sim/src/attendees.ts',
      '@stadiumcam/attendee',
      '@stadiumcam/attendee/src/main.tsx',
    ]) {
      const found = await problems('packages/contract/src/route.ts', `import { x } from '${from}';\n`);
      expect(found, from).toEqual([expect.stringContaining('never the other way round')]);
    }
    expect(await problems('packages/contract/src/route.ts', "import { z } from 'zod';\n")).toEqual([]);
  });
});
