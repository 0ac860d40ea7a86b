import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ADMIN_ROLE, ADMIN_USERNAME, ALL_PERMISSIONS } from '@stadiumcam/contract';
import type { Deps } from './deps.ts';
import { hashPassword, randomPassword } from './modules/auth/auth.service.ts';
import { findUserByUsername, insertUserIfFree } from './modules/users/users.repository.ts';
import { upsertReadonlyRole } from './modules/roles/roles.repository.ts';
import { ensureMasterTemplate } from './modules/events/events.bootstrap.ts';

/**
 * Every start: the built-in admin role holds every permission of this version. First
 * start: the admin user and the master template event.
 */
export async function bootstrap(deps: Deps): Promise<void> {
  await upsertReadonlyRole(deps.db, ADMIN_ROLE, ALL_PERMISSIONS);
  if (!(await findUserByUsername(deps.db, ADMIN_USERNAME))) {
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
  await ensureMasterTemplate(deps);
}
