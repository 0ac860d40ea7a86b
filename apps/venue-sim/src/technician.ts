import { MAP_FILE_RE, mappingRoutes, authRoutes } from '@stadiumcam/contract';
import type { SimLog } from './host.ts';
import { venueMapFile, venueRowDict } from './venue-map.ts';

export type Technician = { username: string; password: string };

/**
 * On a first start (the server has no map files yet) the simulator describes its bowl as a
 * technician would: logs in, uploads the row dictionary and one map file per camera through the
 * config-file API, then presses 'Update Config'. A server that already has map files is left alone.
 */
export async function uploadVenueMap(opts: {
  serverUrl: string;
  technician: Technician;
  cameras: number;
  log: SimLog;
}): Promise<boolean> {
  const { serverUrl, log } = opts;
  const origin = new URL(serverUrl).origin;
  const login = await fetch(`${serverUrl}${authRoutes.login.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(opts.technician),
  });
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('sid='))
    ?.split(';')[0];
  if (!login.ok || !cookie) {
    log.warn({ status: login.status }, 'venue simulator could not log in to upload its map files');
    return false;
  }
  const headers = { cookie, origin };
  const list = (await (await fetch(`${serverUrl}${mappingRoutes.list.path}`, { headers })).json()) as {
    files?: { name: string }[];
  };
  if (list.files?.some((f) => MAP_FILE_RE.test(f.name))) return false;
  const form = new FormData();
  form.append('file', new Blob([venueRowDict()], { type: 'text/plain' }), 'row_dict.txt');
  for (let n = 1; n <= opts.cameras; n++) {
    form.append(
      'file',
      new Blob([JSON.stringify(venueMapFile(n, opts.cameras), null, 2)], { type: 'application/json' }),
      `cam${n}.json`,
    );
  }
  const up = await fetch(`${serverUrl}${mappingRoutes.upload.path}`, { method: 'POST', headers, body: form });
  const result = (await up.json()) as { files?: { name: string; success: boolean; error?: string }[] };
  const failed = result.files?.filter((f) => !f.success) ?? [];
  if (!up.ok || failed.length) {
    log.warn({ status: up.status, failed }, 'venue simulator map files refused');
    return false;
  }
  const reload = await fetch(`${serverUrl}${mappingRoutes.reload.path}`, { method: 'POST', headers });
  if (!reload.ok) {
    log.warn({ status: reload.status, body: await reload.text() }, 'venue simulator seat map not loaded');
    return false;
  }
  await fetch(`${serverUrl}${authRoutes.logout.path}`, { method: 'POST', headers }).catch(() => undefined);
  log.info({ cameras: opts.cameras }, 'venue simulator uploaded its map files and row dictionary');
  return true;
}
