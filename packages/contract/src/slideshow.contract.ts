import { z } from 'zod';
import { defineRoute } from './route.ts';

/** Slideshow options (spec 2 §9, DESIGN §6 for the defaults). */
export const SLIDESHOW_INTERVALS_MS = [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000] as const;
export const SLIDESHOW_DURATIONS_MS = [200, 400, 600, 800, 1000] as const;
export const SLIDESHOW_EASINGS = ['ease', 'linear', 'ease-in', 'ease-out', 'ease-in-out'] as const;
export type SlideshowEasing = (typeof SLIDESHOW_EASINGS)[number];
export const SLIDESHOW_DEFAULTS = {
  transitionTime: 5000,
  transitionDuration: 1000,
  animation: 'ease-in-out',
  backgroundColor: '#ffffff',
} as const;

const HexColor = z.string().regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, 'Enter a colour like #ffffff');

/** The settings the operator saves (PATCH events/slideshow): all four fields required (spec 2 §5). */
export const SlideshowSettingsSchema = z.object({
  transitionTime: z.number().int().min(1000).max(10000),
  transitionDuration: z.number().int().min(200).max(1000),
  animation: z.enum(SLIDESHOW_EASINGS),
  backgroundColor: HexColor,
  /** A file of this server (`/media/...`): never a `javascript:` or another site's address. */
  slideshowBannerUrl: z
    .string()
    .max(500)
    .regex(/^\/media\/[A-Za-z0-9][A-Za-z0-9._/-]{0,300}$/, 'Not a media URL')
    .optional(),
});
export type SlideshowSettings = z.infer<typeof SlideshowSettingsSchema>;

/** Spec 3 §3: a slide is sharedURI + smallURI; the settings are optional (a partial template). */
export const SlideshowImagesSchema = z.object({
  slugDate: z.string(),
  snapshots: z.array(z.object({ _id: z.string(), sharedURI: z.string(), smallURI: z.string() })),
  slideshowSettings: SlideshowSettingsSchema.partial().optional(),
});
export type SlideshowImages = z.infer<typeof SlideshowImagesSchema>;

/** A venue screen shows at most this many favourites (the newest). */
export const SLIDESHOW_MAX_IMAGES = 5000;

export const slideshowRoutes = {
  /** Public (spec 3 §6: no access check): favourited photos of the current event. */
  images: defineRoute({
    method: 'GET',
    path: '/api/slideshow/images',
    public: true,
    response: SlideshowImagesSchema,
  }),
};
