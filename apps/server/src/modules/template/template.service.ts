import type { z } from 'zod';
import {
  MSG,
  TEMPLATE_PARTS,
  partToFields,
  previewUrl,
  type ScreenshotsPreviewAnswerSchema,
  type ScreenshotsPreviewSchema,
  type TemplatePartName,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { toEvent } from '../events/events.mapper.ts';
import { getEventBySlugDate } from '../events/events.service.ts';
import { toPublicTemplate } from '../attendee/public-event.ts';
import { patchEventConfigs } from './template.repository.ts';
import type { PartValue, ServerPart } from './template.parts.ts';

/**
 * Saves one configuration part to every event in `eventIds` (DESIGN §10): rules first, then one
 * transaction for all (an unknown id: 404, nothing written), then every console hears
 * `monitor event updated` and the events' open attendee apps get the new configuration.
 */
export async function savePart<N extends TemplatePartName>(
  deps: Deps,
  part: ServerPart<N>,
  body: PartValue<N> & { eventIds: string[] },
): Promise<PartValue<N>> {
  const { eventIds, ...raw } = body;
  const value = part.rules ? await part.rules(raw as PartValue<N>, deps) : (raw as PartValue<N>);
  const rows = await patchEventConfigs(deps.db, eventIds, partToFields(part.name, value));
  if (!rows) throw notFound(MSG.events.eventNotFound);
  // The attendee side reuses event lookups for a second: a saved part must be read at once
  // (the e-mail sent right after a colours save has the new colours).
  deps.eventCache.clear();
  for (const row of rows) {
    const event = toEvent(row);
    deps.realtime.consoles.emit('monitor event updated', { slugDate: row.slugDate, event });
    deps.attendeeFeed.publish(row.slugDate, toPublicTemplate(event));
  }
  // The schema's own answer: a part's response lists exactly its fields.
  return TEMPLATE_PARTS[part.name].schema.parse(value) as PartValue<N>;
}

/**
 * The colour page's previews are the real attendee app in preview mode (DESIGN §10): the answer
 * lists each screen's URL; the colours reach the frames from the console itself. `fresh` is
 * false for a hash seen before (the answer is then the same list, at once).
 */
export async function previewScreenshots(
  deps: Deps,
  seen: Set<string>,
  body: z.infer<typeof ScreenshotsPreviewSchema>,
): Promise<z.infer<typeof ScreenshotsPreviewAnswerSchema>> {
  if (!(await getEventBySlugDate(deps, body.slugDate))) throw notFound(MSG.events.eventNotFound);
  const fresh = !seen.has(body.hash);
  if (fresh) {
    if (seen.size > 500) seen.clear();
    seen.add(body.hash);
  }
  return {
    hash: body.hash,
    fresh,
    screenshots: body.screenshots.map((s) => ({ ...s, url: previewUrl(body.slugDate, s.screen) })),
  };
}
