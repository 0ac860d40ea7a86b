import { useEffect, useState } from 'react';
import { call, publicApi, userId, type PublicEvent } from '../api.ts';
import { go } from '../router.ts';
import { store } from '../session.ts';
import { useT } from '../texts.tsx';
import { CameraIcon } from './landing.tsx';
import { isPreview } from '../preview.ts';

/** How often a queued fan's phone asks for its place and its photo. */
const POLL_MS = 3000;

/** Position and camera while waiting; moves on to the photo as soon as it exists. */
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
  const [place, setPlace] = useState({ camera: ticket?.camera ?? '', position: ticket?.position ?? 0 });

  useEffect(() => {
    if (!ticket || isPreview) return;
    let stop = false;
    const tick = async () => {
      try {
        const [photos, now] = await Promise.all([
          publicApi.snapshots(event.slugDate, userId()),
          call<{ camera: string | null; position: number }>(
            'GET',
            `queue/position?userId=${encodeURIComponent(userId())}`,
          ),
        ]);
        if (stop) return;
        const fresh = photos.find((p) => p.date >= ticket.joinedAt);
        if (fresh) {
          store.setTicket(null);
          go(`photo/${encodeURIComponent(fresh._id)}`);
          return;
        }
        if (now.camera) setPlace({ camera: now.camera, position: now.position });
      } catch {
        /* offline for a moment: the next tick tries again */
      }
    };
    void tick();
    const timer = setInterval(() => void tick(), POLL_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
    // The ticket is read once per visit of this screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [event.slugDate]);

  if (!ticket) {
    go('seat');
    return null;
  }
  return (
    <section className="screen queue" data-screen="queue">
      <div className="pulse">
        <CameraIcon />
      </div>
      <h1>{t('queue.title')}</h1>
      <p className="big" data-testid="queue-position">
        {place.position <= 1 ? t('queue.next') : t('queue.position', { position: place.position })}
      </p>
      <p className="muted">{t('queue.camera', { camera: place.camera })}</p>
      <p>{t('queue.hint')}</p>
      {event.triviaEnabled && !isPreview ? (
        <Trivia slugDate={event.slugDate} language={language} />
      ) : (
        <div className="shimmer" aria-hidden="true" />
      )}
      <button
        className="secondary"
        onClick={() => {
          store.setTicket(null);
          go('seat');
        }}
      >
        {t('queue.changeSeat')}
      </button>
    </section>
  );
}

type Question = Awaited<ReturnType<typeof publicApi.trivia>>[number];

/** Trivia while the fan waits (DESIGN §10): one question at a time, right or wrong at once. */
function Trivia({ slugDate, language }: { slugDate: string; language: string }) {
  const t = useT();
  const [questions, setQuestions] = useState<Question[]>([]);
  const [at, setAt] = useState(0);
  const [answer, setAnswer] = useState<1 | 2 | null>(null);
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
  const right = answer !== null && answer === q.correctAnswer;
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
            onClick={() => setAnswer(n)}
          >
            {n === 1 ? q.answer1 : q.answer2}
          </button>
        ))}
      </div>
      {answer !== null && (
        <>
          <p className={right ? 'ok' : 'error'} role="status">
            {right ? t('trivia.right') : t('trivia.wrong')}
          </p>
          {questions.length > 1 && (
            <button
              className="link"
              onClick={() => {
                setAnswer(null);
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
