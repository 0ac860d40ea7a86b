import { randomUUID } from 'node:crypto';
import { DEFAULT_SLUG, DEFAULT_TIMEZONE } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { defaultTemplateConfig } from './events.defaults.ts';
import { findEventBySlugDate, insertEvent } from './events.repository.ts';

/** The master template: slugDate = slug (DESIGN §4). Created once, never overwritten. */
export async function ensureMasterTemplate(deps: Deps): Promise<void> {
  if (await findEventBySlugDate(deps.db, DEFAULT_SLUG)) return;
  await insertEvent(deps.db, {
    id: randomUUID(),
    slug: DEFAULT_SLUG,
    slugDate: DEFAULT_SLUG,
    template: true,
    title: 'Master Template',
    eventStatus: 'pre',
    timezone: DEFAULT_TIMEZONE,
    config: defaultTemplateConfig(),
  });
}
