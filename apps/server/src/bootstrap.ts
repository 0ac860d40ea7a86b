import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ADMIN_ROLE, ALL_PERMISSIONS } from '@stadiumcam/contract';
import type { Deps } from './deps.ts';
import { hashPassword, randomPassword } from './modules/auth/auth.service.ts';
import { findUserByUsername, insertUser, upsertReadonlyRole } from './modules/users/users.repository.ts';
import { ensureMasterTemplate } from './modules/events/events.bootstrap.ts';

/** First start: the built-in admin role and user, and the master template event. */
export async function bootstrap(deps: Deps): Promise<void> {
  await upsertReadonlyRole(deps.db, ADMIN_ROLE, ALL_PERMISSIONS);
  if (!(await findUserByUsername(deps.db, 'admin'))) {
    const given = deps.config.adminPassword;
    const password = given ?? randomPassword(16);
    await insertUser(deps.db, {
      id: randomUUID(),
      username: 'admin',
      email: 'admin@stadiumcam.local',
      passwordHash: await hashPassword(password),
      roles: [ADMIN_ROLE],
    });
    if (!given) {
      await mkdir(deps.config.dataDir, { recursive: true });
      const file = path.join(deps.config.dataDir, 'admin-password.txt');
      await writeFile(file, `${password}\n`, { mode: 0o600 });
      console.log(`\n  Created user "admin" with password: ${password}\n  (saved to ${file})\n`);
    }
  }
  await ensureMasterTemplate(deps);
}
