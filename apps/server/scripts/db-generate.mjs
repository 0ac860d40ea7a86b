// `npm run db:generate`: until the first release the migration set is one squashed initial
// migration regenerated from the schema, followed by the custom migrations (SQL drizzle-kit
// cannot express, such as triggers; their file starts with "-- Custom migration"). This keeps
// the custom ones: their SQL is re-added after the fresh initial migration, in their order.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
const dir = path.join(root, 'apps/server/src/db/migrations');
const journalFile = path.join(dir, 'meta/_journal.json');
const entries = () => JSON.parse(readFileSync(journalFile, 'utf8')).entries;
const sqlOf = (tag) => readFileSync(path.join(dir, `${tag}.sql`), 'utf8');

const custom = existsSync(journalFile)
  ? entries()
      .filter((e) => sqlOf(e.tag).startsWith('-- Custom migration'))
      .map((e) => ({ name: e.tag.replace(/^\d+_/, ''), sql: sqlOf(e.tag) }))
  : [];

const kit = (...args) =>
  execFileSync(
    path.join(root, 'node_modules/.bin/drizzle-kit'),
    ['generate', '--config', 'apps/server/drizzle.config.ts', ...args],
    { cwd: root, stdio: 'inherit' },
  );

rmSync(dir, { recursive: true, force: true });
kit();
for (const { name, sql } of custom) {
  kit('--custom', '--name', name);
  writeFileSync(path.join(dir, `${entries().at(-1).tag}.sql`), sql);
}
