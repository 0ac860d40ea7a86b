import { SLIDESHOW_MAX_IMAGES, SlideshowSettingsSchema, type SlideshowImages } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { getCurrentEvent } from '../events/index.ts';
import { favouriteSlides } from './slideshow.repository.ts';

/** Favourited photos of the current event (DESIGN §6) and its slideshow settings. */
export async function slideshowImages(deps: Deps): Promise<SlideshowImages> {
  const event = await getCurrentEvent(deps);
  const rows = await favouriteSlides(deps.db, event.slugDate, SLIDESHOW_MAX_IMAGES);
  // A stored setting that no longer passes the rules is left out, never sent half-valid.
  const settings = SlideshowSettingsSchema.partial().safeParse(event.slideshow ?? {});
  // The Graphics page's Slideshow Banner (images.slideshowBannerUrl) unless the settings name one.
  const banner = (event.images as Record<string, string | undefined>).slideshowBannerUrl;
  if (settings.success && banner && !settings.data.slideshowBannerUrl) settings.data.slideshowBannerUrl = banner;
  return {
    slugDate: event.slugDate,
    // A photo without an overlay has no shared copy yet: the raw crop is what fans see then.
    snapshots: rows.map((r) => ({ _id: r.id, sharedURI: r.sharedUri || r.rawCroppedUri, smallURI: r.smallUri })),
    ...(settings.success ? { slideshowSettings: settings.data } : {}),
  };
}
