/* global self, caches, __SW__ -- a service worker; the build writes its settings in (vite-service-worker.ts) */
/*
 * The one service worker of the console (at /, spec 3 §4 Global) and of the fans' app (at /app/,
 * docs/attendee-app.md): each build emits it as `sw.js` with its own settings.
 * - Install caches the build's list (the fan app: every file, so it opens offline after a first
 *   visit; the console: its page, its hashed files then cached as they are fetched).
 * - The page goes to the network first (meta tags and the event stay fresh) and falls back to the
 *   last copy; hashed files never change, so they come from the cache.
 * - The API, sockets, media and the settings' `pass` paths (the fan app under the console) always
 *   go to the network.
 * - A new build has a new version: its install replaces the whole set, the old cache goes.
 */
const SW = __SW__;
const CACHE = `${SW.name}-${SW.version}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SW.precache))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith(`${SW.name}-`) && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

/** A good answer kept for next time (offline), without holding up the page. */
const keep = (key, res) => {
  if (res.ok) void caches.open(CACHE).then((cache) => cache.put(key, res.clone()));
  return res;
};

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (!url.pathname.startsWith(SW.scope) || SW.pass.some((p) => url.pathname.startsWith(p))) return;
  if (event.request.mode === 'navigate') {
    event.respondWith(
      fetch(event.request)
        .then((res) => keep(SW.scope, res))
        .catch(() => caches.match(SW.scope, { ignoreSearch: true })),
    );
    return;
  }
  const hashed = url.pathname.startsWith(`${SW.scope}assets/`);
  event.respondWith(
    caches
      .match(event.request)
      .then((hit) => hit ?? fetch(event.request).then((res) => (hashed ? keep(event.request, res) : res))),
  );
});
