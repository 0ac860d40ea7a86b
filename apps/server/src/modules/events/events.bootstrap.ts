import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { DEFAULT_SLUG, DEFAULT_TIMEZONE } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { events } from '../../db/schema/index.ts';
import { defaultTemplateConfig } from './events.defaults.ts';

/** The master template: slugDate = slug (DESIGN §4). Created once, never overwritten. */
export async function ensureMasterTemplate(deps: Deps): Promise<void> {
  const existing = await deps.db
    .select({ id: events.id })
    .from(events)
    .where(eq(events.slugDate, DEFAULT_SLUG))
    .limit(1);
  if (existing.length) return;
  await deps.db
    .insert(events)
    .values({
      id: randomUUID(),
      slug: DEFAULT_SLUG,
      slugDate: DEFAULT_SLUG,
      template: true,
      title: 'Master Template',
      eventStatus: 'pre',
      timezone: DEFAULT_TIMEZONE,
      config: defaultTemplateConfig(),
    })
    .onConflictDoNothing();
}
