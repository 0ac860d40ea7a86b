/**
 * The attendee app's routes without their schemas (lite, like `lite.ts`, which re-exports them):
 * method, path and access, typed as the full contract's (the compiler checks each; lite.test.ts
 * compares them at run time). The app builds its paths and its calls' types from them
 * (docs/attendee-app.md). Its own entry, `@stadiumcam/contract/attendee-routes`, because the
 * whole lite entry would bring the permission tree into the app's bundle (about 1.7 KiB gzip).
 */
import type { RouteDef } from './route.ts';
import type {
  attendeeRoutes as AttendeeRoutes,
  attendeeAppRoutes as AttendeeAppRoutes,
} from './attendee-app.contract.ts';
import type { triviaRoutes as TriviaRoutes } from './template-parts.contract.ts';
import type { analyticsRoutes as AnalyticsRoutes } from './analytics.contract.ts';

export { buildPath, toQueryString } from './paths.ts';

// lite.ts's `route`, written out here: lite.ts re-exports this file, so this file imports nothing of it.
const route = <R extends RouteDef>(def: Omit<R, 'params' | 'query' | 'body' | 'response'>) => def as R;

export const attendeeRoutes: typeof AttendeeRoutes = {
  event: route({ method: 'GET', path: '/api/public/event', public: true }),
  joinQueue: route({ method: 'POST', path: '/api/public/queue', public: true }),
  snapshots: route({ method: 'GET', path: '/api/public/snapshots', public: true }),
  chooseOverlay: route({ method: 'POST', path: '/api/public/snapshots/:id/overlay', public: true }),
  share: route({ method: 'POST', path: '/api/public/snapshots/:id/share', public: true }),
};

export const attendeeAppRoutes: typeof AttendeeAppRoutes = {
  fan: route({ method: 'POST', path: '/api/public/fan', public: true }),
  stream: route({ method: 'GET', path: '/api/public/event/stream', public: true }),
  triviaAnswer: route({ method: 'POST', path: '/api/public/trivia/:slugDate/:language/answer', public: true }),
  queuePosition: route({ method: 'GET', path: '/api/public/queue/position', public: true }),
  seats: route({ method: 'GET', path: '/api/public/seats', public: true }),
  email: route({ method: 'POST', path: '/api/public/snapshots/:id/email', public: true }),
};

/** The two attendee app routes that live in other tables: the trivia questions and the page views. */
export const publicTriviaRoute: (typeof TriviaRoutes)['publicQuestions'] = route({
  method: 'GET',
  path: '/api/public/trivia/:slugDate/:language',
  public: true,
});
export const pageViewRoute: (typeof AnalyticsRoutes)['pageView'] = route({
  method: 'POST',
  path: '/api/public/pageView',
  public: true,
});
