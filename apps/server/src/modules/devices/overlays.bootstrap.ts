import { DEFAULT_SLUG } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { demoOverlays } from '../../media/images.ts';
import { setTemplateOverlaysIfEmpty, templateHasOverlays } from './devices.repository.ts';

let rendered: ReturnType<typeof demoOverlays> | undefined;

/**
 * First start: a master template without overlays gets three demo frames (PNG 2160x2160,
 * transparent centre) so attendees and the simulator have something to choose.
 */
export async function ensureDemoOverlays(deps: Deps): Promise<void> {
  if (await templateHasOverlays(deps.db)) return;
  // Rendered once per process: tests build many apps.
  rendered ??= demoOverlays();
  const overlays: Record<string, unknown>[] = [];
  for (const { name, png } of await rendered) {
    const storageKey = `${DEFAULT_SLUG}/overlays/${name}.png`;
    const url = await deps.media.put(storageKey, png);
    overlays.push({
      storageKey,
      urlFullSize: url,
      urlRaw: url,
      urlMediumSize: url,
      disabled: false,
      deleted: false,
      sections: ['*'],
    });
  }
  if (await setTemplateOverlaysIfEmpty(deps.db, overlays)) deps.log.info('demo overlays added to the master template');
}
