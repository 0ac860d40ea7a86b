/* global self, caches -- a service worker */
/*
 * The console's service worker (spec 3 §4 Global): the console opens offline after a visit.
 * Hashed files under /assets/ never change, so they come from the cache once fetched; the page
 * itself goes to the network first and falls back to the last copy. The API, sockets, media and
 * the attendee app (its own worker under /app/) always go to the network.
 */
const CACHE = 'console-v1';
const PASS = ['/api/', '/media/', '/socket.io/', '/app/', '/config/'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.add('/'))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith('console-') && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (PASS.some((p) => url.pathname.startsWith(p))) return;
  if (event.request.mode === 'navigate') {
    event.respondWith(
      fetch(event.request)
        .then((res) => {
          if (res.ok) void caches.open(CACHE).then((cache) => cache.put('/', res.clone()));
          return res;
        })
        .catch(() => caches.match('/')),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.match(event.request).then(
        (hit) =>
          hit ??
          fetch(event.request).then((res) => {
            if (res.ok) void caches.open(CACHE).then((cache) => cache.put(event.request, res.clone()));
            return res;
          }),
      ),
    );
  }
});
