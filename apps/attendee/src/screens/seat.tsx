import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, publicApi, userId, type PublicEvent, type SeatsQuery } from '../api.ts';
import { go } from '../router.ts';
import { cleanSeat, isBlocked, offeredSeatOptions, seatTypeText, store, type Seat, type SeatMode } from '../session.ts';
import { useT } from '../texts.tsx';
import './seat.css';

type Step = 'section' | 'row' | 'seat';

/**
 * Seat entry by the event's seat types: the enabled ones, in the seat options' order. Each field
 * offers the venue's seat map as choices (sections of the type, rows of the section, seats of the
 * row) while still taking what the fan types. The choices of the field being filled are shown
 * below the fields as the type's `mode` says: `grid` tiles several to a line, `list` one full-width
 * line each (docs/attendee-app.md). A blocked seat is refused here, and the server picks the
 * camera or refuses a seat no camera covers.
 */
export function SeatForm({ event }: { event: PublicEvent }) {
  const t = useT();
  const options = offeredSeatOptions(event.seatType);
  const types = options.map((o) => o.type);
  const saved = store.seat();
  const [seat, setSeat] = useState<Seat>({
    seatType: saved && types.includes(saved.seatType) ? saved.seatType : types[0],
    section: saved?.section ?? '',
    row: saved?.row ?? '',
    seat: saved?.seat ?? '',
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The field whose choices show: the one the fan focused, else the first empty one.
  const [focused, setFocused] = useState<Step | null>(null);
  // A type the event stopped offering (a live change) falls back to the first offered one.
  const seatType = types.includes(seat.seatType) ? seat.seatType : types[0];
  const mode: SeatMode = options.find((o) => o.type === seatType)?.mode ?? 'grid';
  const set = (k: keyof Seat) => (e: { target: { value: string } }) =>
    setSeat({ ...seat, seatType, [k]: e.target.value });
  const section = seat.section.trim();
  const row = seat.row.trim();
  const sections = useChoices({ seatType });
  const rows = useChoices(section ? { seatType, section } : null);
  const seats = useChoices(section && row ? { seatType, section, row } : null);
  const step: Step = focused ?? (!section ? 'section' : !row ? 'row' : 'seat');
  const choices = { section: sections, row: rows, seat: seats }[step];
  const sectionLabel = types.length > 1 ? t(seatTypeText(seatType)) : t('seat.section');
  const stepLabel = { section: sectionLabel, row: t('seat.row'), seat: t('seat.seat') }[step];
  // Choosing a section starts its row and seat afresh; choosing a row, its seat.
  const choose = (value: string) => {
    const next =
      step === 'section'
        ? { ...seat, seatType, section: value, row: '', seat: '' }
        : step === 'row'
          ? { ...seat, seatType, row: value, seat: '' }
          : { ...seat, seatType, seat: value };
    setSeat(next);
    setFocused(null);
    setError(null);
  };

  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const typed = { seatType, section: seat.section.trim(), row: seat.row.trim(), seat: seat.seat.trim() };
    if (!typed.section || !typed.row || !typed.seat) return setError(t('seat.required'));
    // The seat in the one spelling the server reads (`017` is 17): refused here as it would be there.
    const clean = cleanSeat(typed);
    if (!clean) return setError(t('seat.unreadable'));
    if (isBlocked(event.blockedSeats, clean)) return setError(t('seat.blocked'));
    setError(null);
    setBusy(true);
    try {
      const fence = event.geofence as { enabled?: boolean; latitude?: number; longitude?: number; radius?: number };
      let location: { latitude: number; longitude: number } | undefined;
      if (fence.enabled) {
        // The venue's geofence (spec 2 Geofence): the browser's position, checked here for a quick
        // answer and again by the server from the position sent.
        setError(t('geofence.checking'));
        const place = await browserPosition();
        setError(null);
        if (!place) return setError(t('geofence.denied'));
        location = place;
        const km = distanceKm({ latitude: Number(fence.latitude), longitude: Number(fence.longitude) }, location);
        if (km > Number(fence.radius)) return setError(t('geofence.outside'));
      }
      const joined = await publicApi.joinQueue({
        slugDate: event.slugDate,
        userId: userId(),
        seat: clean,
        ...(location ? { location } : {}),
      });
      store.setSeat(clean);
      store.setTicket({ ...joined, slugDate: event.slugDate, joinedAt: new Date().toISOString(), seat: clean });
      go('queue');
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 409
          ? t(err.key === 'queueFull' ? 'queue.full' : 'queue.noCamera')
          : err instanceof ApiError && err.status === 422
            ? t(err.key === 'seatNotCovered' ? 'seat.notCovered' : 'seat.blocked')
            : err instanceof ApiError && err.key === 'seatUnreadable'
              ? t('seat.unreadable')
              : err instanceof ApiError && err.status === 403 && fenceOn(event)
                ? t('geofence.outside')
                : t('common.error'),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="screen seat" data-screen="seat" onSubmit={(e) => void handleSubmit(e)} noValidate>
      {/* The 'SRS Icon' graphic (Section-Row-Seat): heads the seat form when the event has one. */}
      {event.images.srsIconUrl && (
        <img className="srs-icon" src={event.images.srsIconUrl} alt="" data-testid="srs-icon" width={72} height={72} />
      )}
      <h1>{t('seat.title')}</h1>
      {types.length > 1 && (
        <label className="field">
          <span>{t('seat.type')}</span>
          <select
            value={seatType}
            name="seatType"
            onChange={(e) => {
              // Another type has other sections: start the seat afresh.
              setSeat({ seatType: e.target.value, section: '', row: '', seat: '' });
              setFocused(null);
            }}
          >
            {types.map((type) => (
              <option key={type} value={type}>
                {t(seatTypeText(type))}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="seat-fields">
        <label className="field">
          <span>{sectionLabel}</span>
          <input
            value={seat.section}
            onChange={set('section')}
            onFocus={() => setFocused('section')}
            maxLength={20}
            autoComplete="off"
            name="section"
            list="seat-sections"
          />
          <Choices id="seat-sections" options={sections} />
        </label>
        <label className="field">
          <span>{t('seat.row')}</span>
          <input
            value={seat.row}
            onChange={set('row')}
            onFocus={() => setFocused('row')}
            maxLength={10}
            autoComplete="off"
            name="row"
            list="seat-rows"
          />
          <Choices id="seat-rows" options={rows} />
        </label>
        <label className="field">
          <span>{t('seat.seat')}</span>
          <input
            value={seat.seat}
            onChange={set('seat')}
            onFocus={() => setFocused('seat')}
            maxLength={10}
            autoComplete="off"
            name="seat"
            list="seat-seats"
          />
          <Choices id="seat-seats" options={seats} />
        </label>
      </div>
      {choices.length > 0 && (
        <div
          className={`seat-choices ${mode}`}
          role="group"
          aria-label={stepLabel}
          data-testid="seat-choices"
          data-mode={mode}
          data-step={step}
        >
          {choices.map((c) => {
            const current = (step === 'section' ? section : step === 'row' ? row : seat.seat.trim()).toUpperCase();
            return (
              <button
                key={c}
                type="button"
                className="seat-choice"
                aria-pressed={c.toUpperCase() === current}
                onClick={() => choose(c)}
              >
                {c}
              </button>
            );
          })}
        </div>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button className="primary" type="submit" disabled={busy}>
        {busy ? <span className="spinner" role="img" aria-label={t('common.loading')} /> : t('seat.submit')}
      </button>
    </form>
  );
}

/** One field's choices from the seat map (none without a seat map: free entry). */
function useChoices(query: SeatsQuery | null): string[] {
  const [options, setOptions] = useState<string[]>([]);
  // The query's value, not its object (a new one each render), decides when to ask again.
  const key = query ? JSON.stringify(query) : '';
  useEffect(() => {
    let live = true;
    // A short pause so typing a section does not ask once per key.
    const timer = setTimeout(() => {
      if (!key) return setOptions([]);
      publicApi.seats(JSON.parse(key) as SeatsQuery).then(
        (r) => live && setOptions(r.options),
        () => live && setOptions([]),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key]);
  return options;
}

function Choices({ id, options }: { id: string; options: string[] }) {
  return (
    <datalist id={id}>
      {options.map((o) => (
        <option key={o} value={o} />
      ))}
    </datalist>
  );
}

const fenceOn = (event: PublicEvent) => (event.geofence as { enabled?: boolean }).enabled === true;

/** The browser's position, or null when the fan refuses or it cannot be had in 20 s. */
function browserPosition(): Promise<{ latitude: number; longitude: number } | null> {
  return new Promise((resolve) => {
    if (!('geolocation' in navigator)) return resolve(null);
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude }),
      () => resolve(null),
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 60_000 },
    );
  });
}

/** Great-circle km, as the server's check (template-parts.contract.ts distanceKm). */
function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}
