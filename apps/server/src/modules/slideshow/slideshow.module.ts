import { slideshowRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { slideshowImages } from './slideshow.service.ts';

export function registerSlideshow(app: App, deps: Deps): void {
  registerRoute(app, slideshowRoutes.images, async () => slideshowImages(deps));
}
