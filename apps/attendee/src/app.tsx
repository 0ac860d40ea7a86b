import { useEffect, useMemo, useState } from 'react';
import type { AttendeeTextKey } from '@stadiumcam/contract/attendee-texts';
import { useLiveEvent } from './live.ts';
import { isPreview, type PreviewMessage } from './preview.ts';
import { go, usePageViews, useRoute } from './router.ts';
import { store } from './session.ts';
import { applyColors } from './theme.ts';
import { LanguageContext, TextsContext, languageTag, makeT, useT } from './texts.tsx';
import { Album } from './screens/album.tsx';
import { Landing } from './screens/landing.tsx';
import { Loading, Photo } from './screens/photo.tsx';
import { Queue } from './screens/queue.tsx';
import { SeatForm } from './screens/seat.tsx';
import { Share } from './screens/share.tsx';

const params = new URLSearchParams(location.search);

/** The fans' phone app: one event (the current one, or `?event=<slugDate>`), screens by step. */
export function App() {
  const { event, error } = useLiveEvent(params.get('event') ?? undefined);
  const route = useRoute();
  const [chosen, setChosen] = useState(() => params.get('lang') ?? store.language());
  const language =
    event && chosen && event.availableLanguages.includes(chosen) ? chosen : (event?.defaultLanguage ?? 'english');
  const t = useMemo(() => makeT(event, language), [event, language]);
  usePageViews(event?.slugDate, route, !isPreview);

  // Preview mode: the console's unsaved colours win over the saved ones.
  const [previewColors, setPreviewColors] = useState<PreviewMessage | null>(null);
  useEffect(() => {
    if (previewColors) applyColors(previewColors);
    else if (event) applyColors(event);
  }, [event, previewColors]);
  useEffect(() => {
    // A BCP 47 tag ('fr'), not the table's name of the language ('french'): screen readers choose their voice by it.
    document.documentElement.lang = languageTag(language);
    document.title = t('meta.title');
  }, [language, t]);

  // The colours page's unsaved colours (preview mode only, same origin only).
  useEffect(() => {
    if (!isPreview) return;
    const onMessage = (e: MessageEvent<PreviewMessage>) => {
      if (e.origin === location.origin && e.data?.type === 'stadiumcam:colors') setPreviewColors(e.data);
    };
    window.addEventListener('message', onMessage);
    window.parent.postMessage({ type: 'stadiumcam:ready' }, location.origin);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  const handleLanguage = (l: string) => {
    store.setLanguage(l);
    setChosen(l);
  };

  let screen;
  if (!event) screen = error ? <Message k="landing.noEvent" /> : <Loading />;
  else if (route.name === 'seat') screen = <SeatForm event={event} />;
  else if (route.name === 'queue') screen = <Queue event={event} language={language} />;
  else if (route.name === 'photo') screen = <Photo event={event} id={route.id} />;
  else if (route.name === 'share') screen = <Share event={event} id={route.id} language={language} />;
  else if (route.name === 'album') screen = <Album event={event} />;
  else screen = <Landing event={event} language={language} onLanguage={handleLanguage} />;

  return (
    <LanguageContext.Provider value={language}>
      <TextsContext.Provider value={t}>
        <div className="app">
          {route.name !== 'landing' && <Nav />}
          <main>{screen}</main>
          <Offline />
        </div>
      </TextsContext.Provider>
    </LanguageContext.Provider>
  );
}

function Nav() {
  const t = useT();
  return (
    <nav className="nav">
      <button className="link" onClick={() => history.back()}>
        ‹ {t('common.back')}
      </button>
      <button className="link" onClick={() => go('album')}>
        {t('album.title')}
      </button>
    </nav>
  );
}

function Message({ k }: { k: AttendeeTextKey }) {
  const t = useT();
  return (
    <section className="screen center">
      <p>{t(k)}</p>
    </section>
  );
}

function Offline() {
  const t = useT();
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online ? null : <div className="offline">{t('common.offline')}</div>;
}
