import { createContext, useContext, useMemo } from 'react';
import { ATTENDEE_TEXTS, fillText, type AttendeeTextKey } from '@stadiumcam/contract/attendee-texts';
import type { PublicTemplate } from './api.ts';

export type T = (key: AttendeeTextKey, values?: Record<string, string | number>) => string;

/**
 * Every visible text is a row of the event's language table: the chosen language's text, else
 * the event's default language's, else the app's own English default.
 */
export function makeT(event: Pick<PublicTemplate, 'languages' | 'defaultLanguage'> | undefined, language: string): T {
  return (key, values) => {
    const texts = event?.languages[key]?.texts;
    const text = texts?.[language] || (event && texts?.[event.defaultLanguage]) || ATTENDEE_TEXTS[key].english;
    return fillText(text, values);
  };
}

export const TextsContext = createContext<T>(makeT(undefined, 'english'));
export const useT = () => useContext(TextsContext);

const ALLOWED = new Set(['A', 'B', 'I', 'STRONG', 'EM', 'BR', 'P', 'SPAN']);

/** An html row, reduced to a few harmless tags (links only to http(s) and mailto). */
export function sanitize(html: string): string {
  const doc = new DOMParser().parseFromString(`<div>${html}</div>`, 'text/html');
  const walk = (node: Element) => {
    for (const child of Array.from(node.children)) {
      walk(child);
      if (!ALLOWED.has(child.tagName)) {
        child.replaceWith(...Array.from(child.childNodes));
        continue;
      }
      const href = child.getAttribute('href');
      for (const attr of Array.from(child.attributes)) child.removeAttribute(attr.name);
      if (child.tagName === 'A' && href && /^(https?:|mailto:)/i.test(href)) {
        child.setAttribute('href', href);
        child.setAttribute('target', '_blank');
        child.setAttribute('rel', 'noopener noreferrer');
      }
    }
  };
  const root = doc.body.firstElementChild!;
  walk(root);
  return root.innerHTML;
}

export function HtmlText({ k, className }: { k: AttendeeTextKey; className?: string }) {
  const t = useT();
  const text = t(k);
  const html = useMemo(() => sanitize(text), [text]);
  return <p className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
