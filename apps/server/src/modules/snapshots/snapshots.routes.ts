import { snapshotsRoutes as r } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { encryptedZip, plainZip } from './snapshots.media.ts';
import { checkArchive, fillArchive, fillExport, prepareExport, shareByEmail } from './export.service.ts';
import { banPhotos, banUser, deletePhotos, favoritePhotos } from './moderation.service.ts';
import { albumStats, filterOptions, listSnapshots } from './paging.service.ts';
import { facesData, getSnapshot, originalOf, userStats } from './snapshots.service.ts';
import { exportEventUsers } from './event-users.export.ts';

const attachment = (name: string) => `attachment; filename="${name}"`;
const stamp = () => new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');

export function registerSnapshotsRoutes(app: App, deps: Deps): void {
  registerRoute(app, r.list, ({ user, query }) => listSnapshots(deps, user, query));
  registerRoute(app, r.stats, ({ user, query }) => albumStats(deps, user, query));
  registerRoute(app, r.filterOptions, ({ user, query }) => filterOptions(deps, user, query.slugDate));
  registerRoute(
    app,
    r.sharedPlatforms,
    async ({ user, query }) => (await filterOptions(deps, user, query.slugDate)).sharePlatforms,
  );
  registerRoute(app, r.eventUsersExport, async ({ user, query, reply }) => {
    const { name, csv } = await exportEventUsers(deps, user, query);
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', attachment(name))
      .send(csv);
  });
  registerRoute(app, r.get, ({ user, params, query }) => getSnapshot(deps, user, params.id, query.fields));
  registerRoute(app, r.original, async ({ user, params, reply }) => {
    const file = await originalOf(deps, user, params.id);
    void reply
      .header('content-type', 'application/octet-stream')
      .header('cache-control', 'private, no-store')
      .send(file);
    return reply;
  });
  registerRoute(app, r.facesData, ({ user, params }) => facesData(deps, user, params.id));
  registerRoute(app, r.userStats, ({ user, params, query }) => userStats(deps, user, params.id, query.slugDate));

  registerRoute(app, r.banUser, async ({ user, body }) => ({
    ok: true as const,
    snapshots: await banUser(deps, user, body.userId, body.banStatus, body.slugDate),
  }));
  registerRoute(app, r.ban, async ({ user, body }) => ({
    ok: true as const,
    snapshots: await banPhotos(deps, user, body.ids, body.banStatus),
  }));
  registerRoute(app, r.favorite, async ({ user, body }) => ({
    ok: true as const,
    snapshots: await favoritePhotos(deps, user, body.ids, body.favorite),
  }));
  registerRoute(app, r.remove, async ({ user, body }) => ({
    ok: true as const,
    deleted: await deletePhotos(deps, user, body.ids),
  }));

  registerRoute(app, r.export, async ({ user, body, req, reply }) => {
    const plan = await prepareExport(deps, user, body);
    const zip = encryptedZip(body.password);
    zip.on('warning', (err) => req.log.warn({ err }, 'export'));
    zip.on('error', (err) => req.log.error({ err }, 'export failed'));
    void reply
      .header('content-type', 'application/zip')
      .header('content-disposition', attachment(`photos-${stamp()}.zip`))
      .send(zip);
    // Filling runs while the answer streams; a closed connection stops it. The answer's close,
    // not the request's: a POST's request stream is destroyed as soon as its body is read.
    let closed = false;
    reply.raw.on('close', () => (closed = true));
    fillExport(deps, user, zip, plan, () => closed).catch((err: unknown) => {
      req.log.error({ err }, 'export failed');
      zip.abort();
    });
    return reply;
  });

  registerRoute(app, r.downloadArchive, async ({ user, query, req, reply }) => {
    await checkArchive(deps, user, query.snapshots);
    const zip = plainZip();
    zip.on('error', (err) => req.log.error({ err }, 'archive failed'));
    void reply
      .header('content-type', 'application/zip')
      .header('content-disposition', attachment(`${query.type === 'sharedURI' ? 'overlayed' : 'raw'}-${stamp()}.zip`))
      .send(zip);
    fillArchive(deps, user, zip, query.snapshots, query.type).catch((err: unknown) => {
      req.log.error({ err }, 'archive failed');
      zip.abort();
    });
    return reply;
  });

  registerRoute(app, r.shareByEmail, async ({ user, body }) => {
    await shareByEmail(deps, user, body);
    return { ok: true as const };
  });
}
