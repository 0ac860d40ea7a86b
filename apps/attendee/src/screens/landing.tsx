import type { PublicEvent } from '../api.ts';
import { go } from '../router.ts';
import { HtmlText, languageName, languageTag, useT } from '../texts.tsx';

type Props = { event: PublicEvent; language: string; onLanguage: (l: string) => void };

/** Front image, heading, language choice, Start. */
export function Landing({ event, language, onLanguage }: Props) {
  const t = useT();
  const front = event.images.frontPageUrl;
  return (
    <section className="screen landing" data-screen="landing">
      <div
        className="hero"
        style={front ? { backgroundImage: `url("${front}")` } : undefined}
        data-testid="front-image"
      >
        {!front && <CameraIcon />}
      </div>
      <h1>{t('landing.title')}</h1>
      <p className="muted">{t('landing.subtitle')}</p>
      {event.availableLanguages.length > 1 && (
        <label className="field">
          <span>{t('landing.language')}</span>
          <select value={language} onChange={(e) => onLanguage(e.target.value)} data-testid="language">
            {/* Each language in its own words ('Français'), so a fan finds theirs whatever is shown now. */}
            {event.availableLanguages.map((l) => (
              <option key={l} value={l} lang={languageTag(l)}>
                {languageName(l)}
              </option>
            ))}
          </select>
        </label>
      )}
      <button className="primary" onClick={() => go('seat')}>
        {t('landing.start')}
      </button>
      <HtmlText k="landing.legal" className="legal" />
    </section>
  );
}

export function CameraIcon() {
  return (
    <svg viewBox="0 0 100 100" className="camera-icon" aria-hidden="true">
      <circle cx="50" cy="50" r="46" fill="var(--icon-cloudBackground)" />
      <rect x="22" y="36" width="56" height="36" rx="7" fill="var(--theme-cameraButtonColor)" />
      <rect x="38" y="29" width="24" height="10" rx="3" fill="var(--theme-cameraButtonColor)" />
      <circle cx="50" cy="54" r="12" fill="var(--theme-cameraIconColor)" />
      <circle cx="50" cy="54" r="7" fill="var(--icon-cameraLens)" />
    </svg>
  );
}
