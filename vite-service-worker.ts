import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/** What one app's worker does differently (the source is one: `service-worker.js`). */
export type ServiceWorkerSettings = {
  /** The cache names' prefix; a build's cache is `<name>-<version>`. */
  name: string;
  /** Where the app lives (`/`, `/app/`): the worker handles nothing outside it. */
  scope: string;
  /** Paths under the scope that always go to the network. */
  pass?: string[];
  /** The files installed at once, from the build's own file names (paths under the scope). */
  precache: (bundleFiles: string[]) => string[];
};

/**
 * Emits `sw.js` from the one worker source with this app's settings and a version made from the
 * build's file list, so a new build replaces the whole set at once.
 */
export function serviceWorker(settings: ServiceWorkerSettings): Plugin {
  return {
    name: 'stadiumcam-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle);
      const precache = settings.precache(files);
      const version = createHash('sha1').update(files.sort().join('\n')).digest('hex').slice(0, 12);
      const sw = { name: settings.name, version, scope: settings.scope, pass: settings.pass ?? [], precache };
      const source = readFileSync(new URL('./service-worker.js', import.meta.url), 'utf8')
        // The assignment, not the header comment's mention.
        .replace('SW = __SW__', `SW = ${JSON.stringify(sw)}`);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}
