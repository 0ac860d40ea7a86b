import type { z } from 'zod';
import {
  TEMPLATE_PARTS,
  partToFields,
  previewUrl,
  type ScreenshotsPreviewAnswerSchema,
  type ScreenshotsPreviewSchema,
  type TemplatePartName,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { badRequest, notFound, ERR } from '../../errors.ts';
import { getEventBySlugDate } from '../events/index.ts';
import { writeEventConfigs, type ConfigFields } from './event-config.service.ts';
import type { PartValue, ServerPart } from './server-parts.ts';

/**
 * A part's value checked as its screen's save checks it (DESIGN §10): the part's schema (the
 * route's 400 text for a value that does not parse), then the server's rules of spec 2 §5 (their
 * texts). Answers the value to store and the event fields it writes. The .amp import calls this
 * for every part it carries, so an import obeys exactly the screens' rules.
 */
export async function checkPart<N extends TemplatePartName>(
  deps: Deps,
  part: ServerPart<N>,
  raw: unknown,
): Promise<{ value: PartValue<N>; fields: ConfigFields }> {
  const parsed = TEMPLATE_PARTS[part.name].schema.safeParse(raw);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message, in: 'body' }));
    throw badRequest(ERR.common.invalidRequest(details[0]?.path, details[0]?.message), details);
  }
  const value = part.rules ? await part.rules(parsed.data as PartValue<N>, deps) : (parsed.data as PartValue<N>);
  return { value, fields: partToFields(part.name, value) };
}

/**
 * Saves one configuration part to every event in `eventIds` (DESIGN §10): rules first, then the
 * one writer (one transaction for all; an unknown id: 404, nothing written; then every console
 * hears `monitor event updated` and the events' open attendee apps get the new configuration).
 */
export async function savePart<N extends TemplatePartName>(
  deps: Deps,
  part: ServerPart<N>,
  body: PartValue<N> & { eventIds: string[] },
): Promise<PartValue<N>> {
  const { eventIds, ...raw } = body;
  const { value, fields } = await checkPart(deps, part, raw);
  const written = await writeEventConfigs(
    deps,
    eventIds.map((id) => ({ id, fields })),
  );
  if (!written) throw notFound(ERR.events.eventNotFound);
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
  if (!(await getEventBySlugDate(deps, body.slugDate))) throw notFound(ERR.events.eventNotFound);
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
