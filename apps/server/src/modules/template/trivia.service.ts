import { MSG, TRIVIA_CSV_COLUMNS, triviaId, type TriviaQuestion } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { toEvent } from '../events/events.mapper.ts';
import { findEventRows, findEventRowsById, mergeConfigs } from './template-parts.repository.ts';

/**
 * Questions live in the event's configuration (`triviaQuestions`: language → list), so a new
 * dated event copies the template's and an .amp carries them like every other part.
 */
type Questions = Record<string, TriviaQuestion[]>;
const questionsOf = (config: Record<string, unknown>): Questions =>
  (config.triviaQuestions as Questions | undefined) ?? {};

async function rowsOrNotFound(deps: Deps, ids: string[]) {
  const unique = [...new Set(ids)];
  const rows = await findEventRowsById(deps.db, unique);
  if (rows.length !== unique.length) throw notFound(MSG.events.eventNotFound);
  return rows;
}

export async function listQuestions(deps: Deps, slugDate: string, language: string): Promise<TriviaQuestion[]> {
  const [row] = await findEventRows(deps.db, [slugDate]);
  if (!row) throw notFound(MSG.events.eventNotFound);
  return questionsOf(row.config)[language] ?? [];
}

/** What a queued fan may answer: nothing while the event's trivia is disabled. */
export async function publicQuestions(deps: Deps, slugDate: string, language: string): Promise<TriviaQuestion[]> {
  const [row] = await findEventRows(deps.db, [slugDate]);
  if (!row) throw notFound(MSG.events.eventNotFound);
  if (row.config.triviaEnabled !== true) return [];
  return questionsOf(row.config)[language] ?? [];
}

async function save(deps: Deps, changes: { id: string; parts: Record<string, unknown> }[]) {
  const rows = await mergeConfigs(deps.db, changes);
  for (const row of rows)
    deps.realtime.consoles.emit('monitor event updated', { slugDate: row.slugDate, event: toEvent(row) });
}

/**
 * Adds the questions to every event (a question with the same _id is replaced in place). The
 * _id is taken from the question text (spec 2 §3, `triviaId`), whatever the client sent.
 */
export async function addQuestions(
  deps: Deps,
  input: { language: string; eventIds: string[]; questions: TriviaQuestion[] },
): Promise<number> {
  const rows = await rowsOrNotFound(deps, input.eventIds);
  const questions = input.questions.map((q) => ({ ...q, _id: triviaId(q.question) }));
  await save(
    deps,
    rows.map((row) => {
      const all = questionsOf(row.config);
      const list = [...(all[input.language] ?? [])];
      for (const q of questions) {
        const at = list.findIndex((x) => x._id === q._id);
        if (at >= 0) list[at] = q;
        else list.push(q);
      }
      return { id: row.id, parts: { triviaQuestions: { ...all, [input.language]: list } } };
    }),
  );
  return input.questions.length;
}

export async function deleteQuestions(
  deps: Deps,
  input: { language: string; eventIds: string[]; questionIds: string[] },
): Promise<number> {
  const rows = await rowsOrNotFound(deps, input.eventIds);
  const ids = new Set(input.questionIds);
  let deleted = 0;
  await save(
    deps,
    rows.map((row) => {
      const all = questionsOf(row.config);
      const list = all[input.language] ?? [];
      const kept = list.filter((q) => !ids.has(q._id));
      deleted += list.length - kept.length;
      return { id: row.id, parts: { triviaQuestions: { ...all, [input.language]: kept } } };
    }),
  );
  return deleted;
}

/** RFC 4180 cell; a leading = + - @ (or tab, CR) is neutralised against spreadsheet formulas. */
function cell(value: string | number): string {
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

/** The CSV the import reads back (header row + one row per question). */
export function questionsCsv(questions: TriviaQuestion[]): string {
  const lines = [TRIVIA_CSV_COLUMNS.join(',')];
  for (const q of questions) lines.push(TRIVIA_CSV_COLUMNS.map((c) => cell(q[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
