import { useEffect, useState } from 'react';
import type { QueuePosition } from '@stadiumcam/contract/lite';
import { publicApi, userId, type PublicEvent } from '../api.ts';
import { go } from '../router.ts';
import { store } from '../session.ts';
import { useT } from '../texts.tsx';
import { CameraIcon } from './landing.tsx';
import { isPreview } from '../preview.ts';
import { fanStreamOpen, lastQueuePush, onFanPush } from '../live.ts';

/**
 * The fan's place and photo are pushed on the live stream (issue 30 §3); the phone asks, this
 * often (checked every second), only while the stream is down, before the first answer, and once
 * the fan's turn is on or over: the photo's push is the fast way, the ask the safety net (a push
 * lost while the stream reconnected, or the one ask it started failing). One fan per camera at a time.
 */
const SLOW_POLL_MS = 5000;
const CHECK_MS = 1000;

type Place = Pick<QueuePosition, 'state' | 'position' | 'cameraLabel'>;
/** What the screen says: the server's state, and `taking` once the fan's turn is over until the photo comes. */
type Phase = 'waiting' | 'next' | 'live' | 'taking';

/** m:ss, as the operators' monitor shows the live time. */
export const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** Until the first answer: the join's place (its turn reads as 'next' until the server names the camera). */
const fromTicket = (position: number): Place => ({
  state: position <= 2 ? 'next' : 'waiting',
  position,
  cameraLabel: null,
});

/**
 * The fan's turn, as the camera host reports it (docs/attendee-app.md, Queue states): their place
 * while others are ahead, 'you are next', then 'look at camera N now' with the live time counting
 * down as on the operators' monitor, then 'smile' until the photo exists and opens.
 */
export function Queue({ event, language }: { event: PublicEvent; language: string }) {
  const t = useT();
  const ticket = isPreview
    ? {
        slugDate: event.slugDate,
        camera: 'cam1',
        position: 3,
        joinedAt: '',
        seat: { seatType: 'section', section: '104', row: 'F', seat: '12' },
      }
    : store.ticket();
  const [place, setPlace] = useState<Place>(() => fromTicket(ticket?.position ?? 0));
  // The end of the fan's turn on this phone's clock: set when the host's live time changes (a new
  // report), kept while it repeats the same value (the monitor counts down the same way).
  const [liveUntil, setLiveUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!ticket || isPreview) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastLive = '';
    let liveSeen = false;
    let asked = 0;
    // The fan's turn is on or over (or the host has not reported the join yet): a photo may come.
    let turnOn = false;
    // Until one answer arrived the screen asks again even with the stream open: a push comes only
    // when the place changes, so a lost first answer would otherwise leave it waiting for nothing.
    let answered = false;
    const apply = (turn: QueuePosition) => {
      answered = true;
      turnOn = turn.state === 'live' || turn.state === 'none';
      if (turn.state === 'live') {
        liveSeen = true;
        const key = `${turn.camera} ${turn.liveTime}`;
        if (key !== lastLive) {
          const at = Date.now();
          setNow(at);
          setLiveUntil(turn.liveTime > 0 ? at + turn.liveTime * 1000 : null);
        }
        lastLive = key;
      } else lastLive = '';
      // In no queue after their turn: the shot is taken. Before it (the host has not reported the join yet): the place stays.
      if (turn.state !== 'none' || liveSeen) setPlace(turn);
    };
    const tick = async () => {
      asked = Date.now();
      try {
        const [photos, turn] = await Promise.all([
          publicApi.snapshots(event.slugDate, userId()),
          publicApi.queuePosition(userId()),
        ]);
        if (stop) return;
        const fresh = photos.find((p) => p.date >= ticket.joinedAt);
        if (fresh) {
          store.setTicket(null);
          go(`photo/${encodeURIComponent(fresh._id)}`);
          return;
        }
        apply(turn);
      } catch {
        /* offline for a moment: the next tick tries again */
      }
    };
    // Pushed: the place as it changes; the photo's notice fetches the photo and opens it.
    const unsubscribe = onFanPush((push) => {
      if (stop) return;
      if (push.name === 'queue') apply(push.data as QueuePosition);
      else void tick();
    });
    const check = () => {
      if (stop) return;
      if ((!fanStreamOpen() || !answered || turnOn) && Date.now() - asked >= SLOW_POLL_MS) void tick();
      timer = setTimeout(check, CHECK_MS);
    };
    // Just joined with the stream open: the place comes pushed (each change of it) and no photo can
    // exist yet, so the screen does not ask now; without an answer by SLOW_POLL_MS it asks then.
    // In a half-time burst that is two calls and a database read fewer per join (issue 30).
    const justJoined = Date.now() - Date.parse(ticket.joinedAt) < SLOW_POLL_MS;
    if (fanStreamOpen() && justJoined) {
      asked = Date.now();
      // The join's own report may have been pushed before this screen listened.
      const last = lastQueuePush() as QueuePosition | null;
      if (last && last.state !== 'none') apply(last);
    } else void tick();
    timer = setTimeout(check, CHECK_MS);
    return () => {
      stop = true;
      unsubscribe();
      clearTimeout(timer);
    };
    // The ticket is read once per visit of this screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [event.slugDate]);

  // The countdown's second hand, only while it runs.
  useEffect(() => {
    if (liveUntil === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [liveUntil]);

  if (!ticket) {
    go('seat');
    return null;
  }
  const left = liveUntil === null ? null : Math.max(0, Math.ceil((liveUntil - now) / 1000));
  // Out of the queue after their turn, or its live time ran out: the shot is being taken.
  const phase: Phase = place.state === 'none' || (place.state === 'live' && left === 0) ? 'taking' : place.state;
  const status =
    phase === 'taking'
      ? t('queue.smile')
      : phase === 'live'
        ? t('queue.live', { camera: place.cameraLabel ?? '' })
        : phase === 'next'
          ? t('queue.next')
          : t('queue.position', { position: place.position });
  const waiting = phase === 'waiting' || phase === 'next';
  return (
    <section className="screen queue" data-screen="queue" data-phase={phase}>
      <div className="pulse">
        <CameraIcon />
      </div>
      <h1>{t('queue.title')}</h1>
      <div role="status">
        <p className="big" data-testid="queue-position">
          {status}
        </p>
      </div>
      {phase === 'live' && left !== null && (
        <p className="countdown" role="timer" data-testid="queue-countdown">
          {t('queue.timeLeft', { time: clock(left) })}
        </p>
      )}
      {waiting && place.cameraLabel && (
        <p className="muted" data-testid="queue-camera">
          {t('queue.camera', { camera: place.cameraLabel })}
        </p>
      )}
      {waiting && <p>{t('queue.hint')}</p>}
      {waiting && event.triviaEnabled && !isPreview ? (
        <Trivia slugDate={event.slugDate} language={language} />
      ) : (
        <div className="shimmer" aria-hidden="true" />
      )}
      {waiting && (
        <button
          className="secondary"
          onClick={() => {
            store.setTicket(null);
            go('seat');
          }}
        >
          {t('queue.changeSeat')}
        </button>
      )}
    </section>
  );
}

type Question = Awaited<ReturnType<typeof publicApi.trivia>>[number];

/** Trivia while the fan waits (DESIGN §10): one question at a time, right or wrong at once. */
function Trivia({ slugDate, language }: { slugDate: string; language: string }) {
  const t = useT();
  const [questions, setQuestions] = useState<Question[]>([]);
  const [at, setAt] = useState(0);
  // The fan's choice, and the server's word on it (null while asking): the phone has no answer key.
  const [answer, setAnswer] = useState<1 | 2 | null>(null);
  const [right, setRight] = useState<boolean | null>(null);
  useEffect(() => {
    let stop = false;
    publicApi.trivia(slugDate, language).then(
      (list) => !stop && setQuestions(list),
      () => undefined, // no trivia is better than an error while waiting
    );
    return () => {
      stop = true;
    };
  }, [slugDate, language]);
  if (!questions.length) return <div className="shimmer" aria-hidden="true" />;
  const q = questions[at % questions.length];
  const choose = (n: 1 | 2) => {
    setAnswer(n);
    publicApi.triviaAnswer(slugDate, language, q._id, n).then(
      (r) => setRight(r.correct),
      () => setAnswer(null), // not checked: the fan may answer again
    );
  };
  return (
    <div className="trivia" data-testid="trivia">
      <h2>{t('trivia.title')}</h2>
      <p className="question">{q.question}</p>
      <div className="actions">
        {([1, 2] as const).map((n) => (
          <button
            key={n}
            className={answer === n ? (right ? 'primary' : 'secondary wrong') : 'secondary'}
            disabled={answer !== null}
            onClick={() => choose(n)}
          >
            {n === 1 ? q.answer1 : q.answer2}
          </button>
        ))}
      </div>
      {answer !== null && right !== null && (
        <>
          <p className={right ? 'ok' : 'error'} role="status">
            {right ? t('trivia.right') : t('trivia.wrong')}
          </p>
          {questions.length > 1 && (
            <button
              className="link"
              onClick={() => {
                setAnswer(null);
                setRight(null);
                setAt(at + 1);
              }}
            >
              {t('trivia.next')}
            </button>
          )}
        </>
      )}
    </div>
  );
}
