import { DEFAULT_SLUG, type Overlay } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { demoOverlays } from '../../media/images.ts';
import { writeTemplateOverlaysIfEmpty } from '../template/index.ts';
import { templateHasOverlays } from './devices.repository.ts';

let rendered: ReturnType<typeof demoOverlays> | undefined;

/**
 * First start: a master template without overlays gets three demo frames (PNG 2160x2160,
 * transparent centre) so attendees and the simulator have something to choose. Written by the
 * template area's one writer, only while the list is still empty.
 */
export async function ensureDemoOverlays(deps: Deps): Promise<void> {
  if (await templateHasOverlays(deps.db)) return;
  // Rendered once per process: tests build many apps.
  rendered ??= demoOverlays();
  const overlays: Overlay[] = [];
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
  if (await writeTemplateOverlaysIfEmpty(deps, overlays)) deps.log.info('demo overlays added to the master template');
}
