import {
  DEFAULT_COLORS,
  renderPhotoEmail,
  SHARE_EMAILS_PER_HOUR,
  type ShareSnapshotsEmail,
} from '@stadiumcam/contract';
import type { Archiver } from 'archiver';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, unprocessable, ERR } from '../../errors.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { photoEmail } from './photo-email.service.ts';
import { giveQuotaBack, takeQuota } from '../auth/index.ts';
import { getEventBySlugDate } from '../events/index.ts';
import { appendMedia, entriesWritten, extensionOf } from './snapshots.media.ts';
import * as repo from './snapshots.repository.ts';
import type { SnapshotRow } from './snapshots.repository.ts';
import { loadAll, mayReachEvent, seesMagicshots } from './snapshots.service.ts';

/* Archives (plain zips of chosen photos), the encrypted export and the e-mail share. */

const zipName = (r: { slugDate: string; id: string; date: Date }, url: string) =>
  `${r.slugDate}/${r.date.toISOString().replace(/[:.]/g, '-')}_${r.id}${extensionOf(url)}`;

/** What an export will contain; checked (404/422) before the answer starts streaming. */
export async function prepareExport(
  deps: Deps,
  user: AuthUser,
  q: { slugDate?: string[]; id?: string[] },
): Promise<{ slugDates: string[] } | { rows: SnapshotRow[] }> {
  if (q.id) return { rows: await loadAll(deps, user, q.id) };
  const slugDates = [...new Set(q.slugDate ?? [])];
  const found = await repo.findEvents(deps.db, slugDates);
  const missing = slugDates.filter((e) => !found.some((f) => f.slugDate === e) || !mayReachEvent(user, e));
  if (missing.length) throw new AppError(404, ERR.events.eventNotFound, { details: missing });
  if (found.some((f) => f.eventStatus === 'live')) throw unprocessable(ERR.album.exportWhileLive);
  return { slugDates };
}

const EXPORT_BATCH = 500;

/** Streams the photos into the (encrypted) archive a batch at a time, then finalises it. */
export async function fillExport(
  deps: Deps,
  user: AuthUser,
  zip: Archiver,
  plan: Awaited<ReturnType<typeof prepareExport>>,
  aborted: () => boolean,
): Promise<void> {
  const waitFor = entriesWritten(zip);
  let queued = 0;
  const add = async (r: { slugDate: string; id: string; date: Date; rawCroppedUri: string }) => {
    if (await appendMedia(zip, deps.media, r.rawCroppedUri, zipName(r, r.rawCroppedUri))) queued += 1;
    // Keep only a few hundred entries queued: a whole event may hold a million photos.
    await waitFor(queued, EXPORT_BATCH);
  };
  if ('rows' in plan) {
    for (const r of plan.rows) if (!aborted()) await add(r);
  } else {
    let after = '';
    for (;;) {
      if (aborted()) break;
      const batch = await repo.snapshotBatch(deps.db, plan.slugDates, after, EXPORT_BATCH, seesMagicshots(user));
      for (const r of batch) await add(r);
      if (batch.length < EXPORT_BATCH) break;
      after = batch[batch.length - 1].id;
    }
  }
  await zip.finalize();
}

export async function fillArchive(
  deps: Deps,
  user: AuthUser,
  zip: Archiver,
  ids: string[],
  type: 'rawCroppedURI' | 'sharedURI',
): Promise<void> {
  const rows = await loadAll(deps, user, ids);
  for (const r of rows) {
    // A photo nobody put an overlay on has no overlayed image: its raw photo stands in.
    const url = type === 'sharedURI' ? r.sharedUri || r.rawCroppedUri : r.rawCroppedUri;
    await appendMedia(zip, deps.media, url, zipName(r, url));
  }
  await zip.finalize();
}

export async function checkArchive(deps: Deps, user: AuthUser, ids: string[]): Promise<void> {
  await loadAll(deps, user, ids);
}

/** Links in a share mail must be photos of this server: absolute, under its /media. */
function shareLink(publicUrl: string, link: string): string {
  const base = new URL(publicUrl);
  let url: URL;
  try {
    url = new URL(link, base);
  } catch {
    throw badRequest(ERR.album.notPhotoLink(link));
  }
  if (url.origin !== base.origin || !url.pathname.startsWith('/media/') || url.pathname.includes('..'))
    throw badRequest(ERR.album.notOwnPhotoLink(link));
  return url.toString();
}

/**
 * The album's share mail is the one photo e-mail (DESIGN §10): the event's e-mail colours and
 * header image, the operator's subject and text. The event is the one the first photo is of.
 */
export async function shareByEmail(deps: Deps, user: AuthUser, body: ShareSnapshotsEmail): Promise<void> {
  const links = body.snapshots.map((l) => shareLink(deps.config.publicUrl, l));
  // Per user and hour, counted only for mails that go out (docs/security.md §8).
  const quota = `mail:${user._id}`;
  if (!(await takeQuota(deps, quota, SHARE_EMAILS_PER_HOUR, 60 * 60 * 1000)))
    throw new AppError(429, ERR.album.emailRateLimited(SHARE_EMAILS_PER_HOUR));
  const slugDate = new URL(links[0] ?? '', deps.config.publicUrl).pathname.split('/')[2] ?? '';
  const event = slugDate ? await getEventBySlugDate(deps, decodeURIComponent(slugDate)) : null;
  const text = `${body.emailBodyText}\n\n${links.join('\n')}\n`;
  const html = event
    ? photoEmail(deps, event, links, { subject: body.emailSubject, body: body.emailBodyText }).html
    : renderPhotoEmail({
        colors: DEFAULT_COLORS.emailSettings,
        title: 'StadiumCam',
        heading: body.emailSubject,
        body: body.emailBodyText,
        button: 'Open photo',
        photos: links,
      }).html;
  try {
    await deps.mailer.send({ to: body.emailAddress, subject: body.emailSubject, text, html });
  } catch (err) {
    await giveQuotaBack(deps, quota);
    deps.log.error({ err }, 'share mail failed');
    throw new AppError(500, ERR.album.emailFailed);
  }
}
