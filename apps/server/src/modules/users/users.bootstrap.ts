import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ADMIN_ROLE, ADMIN_USERNAME } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { hashPassword, randomPassword } from '../auth/index.ts';
import { findUserByUsername, insertUserIfFree } from '../auth/index.ts';

/**
 * First start: the admin user, with ADMIN_PASSWORD or a random password printed once and
 * saved to DATA_DIR/admin-password.txt.
 */
export async function ensureAdminUser(deps: Deps): Promise<void> {
  if (await findUserByUsername(deps.db, ADMIN_USERNAME)) return;
  const given = deps.config.adminPassword;
  const password = given ?? randomPassword(16);
  const created = await insertUserIfFree(deps.db, {
    id: randomUUID(),
    username: ADMIN_USERNAME,
    email: 'admin@stadiumcam.local',
    passwordHash: await hashPassword(password),
    roles: [ADMIN_ROLE],
  });
  if (created && !given) {
    await mkdir(deps.config.dataDir, { recursive: true });
    const file = path.join(deps.config.dataDir, 'admin-password.txt');
    await writeFile(file, `${password}\n`, { mode: 0o600 });
    console.log(`\n  Created user "admin" with password: ${password}\n  (saved to ${file})\n`);
  }
}
