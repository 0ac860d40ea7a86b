/**
 * Registers the console's service worker in production (spec 3 §4 Global). When its script is
 * missing or is not a script (a proxy answering with a page), the worker this origin had is
 * unregistered and the page reloaded, so a stale worker never keeps serving an old console. A
 * registration error is logged (spec 3 §8).
 */
export async function registerServiceWorker(url = '/sw.js'): Promise<void> {
  if (!('serviceWorker' in navigator) || !navigator.onLine) return;
  try {
    const res = await fetch(url, { cache: 'no-store' });
    if (!res.ok || !/javascript/.test(res.headers.get('content-type') ?? '')) {
      const root = `${location.origin}/`;
      const mine = (await navigator.serviceWorker.getRegistrations()).filter((r) => r.scope === root);
      if (mine.length) {
        await Promise.all(mine.map((r) => r.unregister()));
        location.reload();
      }
      return;
    }
    await navigator.serviceWorker.register(url, { scope: '/' });
  } catch (err) {
    console.error('Service worker registration failed', err);
  }
}
