import { useState, type FormEvent } from 'react';
import { publicApi, userId, type PublicEvent } from '../api.ts';
import { useT } from '../texts.tsx';
import type { AttendeeTextKey } from '@stadiumcam/contract/attendee-texts';
import { Loading, PhotoView, useMyPhotos } from './photo.tsx';

type Platform = 'download' | 'email' | 'share' | 'share level 2' | 'print';
const LABEL: Record<Platform, AttendeeTextKey> = {
  download: 'share.download',
  email: 'share.email',
  share: 'share.share',
  'share level 2': 'share.shareLevel2',
  print: 'share.print',
};
/** The share options the event enabled, in its order (at most 4: spec 2 §5). */
export function enabledShares(share: unknown[]): Platform[] {
  return share
    .filter((s): s is { platform: Platform; enabled: boolean } => {
      const r = s as { platform?: unknown; enabled?: unknown };
      return typeof r?.platform === 'string' && r.platform in LABEL && r.enabled === true;
    })
    .map((s) => s.platform)
    .slice(0, 4);
}

/** Share: the enabled options only (download, e-mail through the server, Web Share, print). */
export function Share({ event, id, language }: { event: PublicEvent; id: string; language: string }) {
  const t = useT();
  const [photos] = useMyPhotos(event.slugDate, id);
  const [emailOpen, setEmailOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<'idle' | 'busy' | 'sent' | 'failed'>('idle');
  const photo = photos?.find((p) => p._id === id);
  if (!photos) return <Loading />;
  if (!photo) return <Loading />;
  const url = new URL(photo.sharedURI, location.href).href;
  const record = (source: 'Download' | 'Email' | 'print' | 'Share') =>
    publicApi.share(id, userId(), source).catch(() => undefined);

  const handle = async (p: Platform) => {
    setStatus('idle');
    if (p === 'email') return setEmailOpen(true);
    if (p === 'download') {
      const a = document.createElement('a');
      a.href = url;
      a.download = `${event.slugDate}-photo.jpg`;
      a.click();
      return void record('Download');
    }
    if (p === 'print') {
      const w = window.open('', '_blank');
      if (w) {
        w.document.write(`<img src="${url}" style="max-width:100%" onload="print()">`);
        w.document.close();
      }
      return void record('print');
    }
    try {
      const file =
        p === 'share'
          ? new File([await (await fetch(url)).blob()], `${event.slugDate}.jpg`, { type: 'image/jpeg' })
          : undefined;
      const data: ShareData = file && navigator.canShare?.({ files: [file] }) ? { files: [file] } : { url };
      if (navigator.share) await navigator.share(data);
      else await navigator.clipboard.writeText(url);
      void record('Share');
    } catch (err) {
      if ((err as Error).name !== 'AbortError') setStatus('failed');
    }
  };

  const handleEmail = async (e: FormEvent) => {
    e.preventDefault();
    setStatus('busy');
    try {
      // The e-mail's texts follow the fan's language, by the name the event's table gives it.
      await publicApi.email(id, { userId: userId(), userEmail: email.trim(), language });
      setStatus('sent');
      setEmailOpen(false);
    } catch {
      setStatus('failed');
    }
  };

  return (
    <section className="screen share" data-screen="share">
      <h1>{t('share.title')}</h1>
      <PhotoView photo={photo} event={event} />
      <div className="share-buttons">
        {enabledShares(event.share).map((p) => (
          <button key={p} className={`share-btn share-${p.replace(/ /g, '-')}`} onClick={() => void handle(p)}>
            {t(LABEL[p])}
          </button>
        ))}
      </div>
      {emailOpen && (
        <form className="email-form" onSubmit={(e) => void handleEmail(e)}>
          <label className="field">
            <span>{t('share.emailLabel')}</span>
            <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} maxLength={320} />
          </label>
          <button className="primary" type="submit" disabled={status === 'busy'}>
            {status === 'busy' ? (
              <span className="spinner" role="img" aria-label={t('common.loading')} />
            ) : (
              t('share.emailSend')
            )}
          </button>
        </form>
      )}
      {status === 'sent' && (
        <p className="ok" role="status">
          {t('share.emailSent')}
        </p>
      )}
      {status === 'failed' && (
        <p className="error" role="alert">
          {t('share.failed')}
        </p>
      )}
    </section>
  );
}
