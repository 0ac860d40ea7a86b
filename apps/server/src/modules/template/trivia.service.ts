import { TRIVIA_CSV_COLUMNS, readEventConfig, triviaId, type TriviaQuestion } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { notFound, ERR } from '../../errors.ts';
import { csvCell } from '../../csv.ts';
import { writeEventConfigs } from './event-config.service.ts';
import { findEventRows } from './template-parts.repository.ts';

/**
 * Questions live in the event's configuration (`triviaQuestions`: language → list), so a new
 * dated event copies the template's and an .amp carries them like every other part.
 */
type Questions = Record<string, TriviaQuestion[]>;
const questionsOf = (config: unknown): Questions => readEventConfig(config).config.triviaQuestions;

export async function listQuestions(deps: Deps, slugDate: string, language: string): Promise<TriviaQuestion[]> {
  const [row] = await findEventRows(deps.db, [slugDate]);
  if (!row) throw notFound(ERR.events.eventNotFound);
  return questionsOf(row.config)[language] ?? [];
}

/** What a queued fan may answer: nothing while the event's trivia is disabled. */
export async function publicQuestions(deps: Deps, slugDate: string, language: string): Promise<TriviaQuestion[]> {
  const [row] = await findEventRows(deps.db, [slugDate]);
  if (!row) throw notFound(ERR.events.eventNotFound);
  if (!readEventConfig(row.config).config.triviaEnabled) return [];
  return questionsOf(row.config)[language] ?? [];
}

/** Edits every event's questions of one language, each with the event locked (the one writer). */
async function editQuestions(
  deps: Deps,
  eventIds: string[],
  language: string,
  edit: (list: TriviaQuestion[]) => TriviaQuestion[],
): Promise<void> {
  const written = await writeEventConfigs(
    deps,
    eventIds.map((id) => ({
      id,
      fields: ({ triviaQuestions: all }) => ({ triviaQuestions: { ...all, [language]: edit(all[language] ?? []) } }),
    })),
  );
  if (!written) throw notFound(ERR.events.eventNotFound);
}

/**
 * Adds the questions to every event (a question with the same _id is replaced in place). The
 * _id is taken from the question text (spec 2 §3, `triviaId`), whatever the client sent.
 */
export async function addQuestions(
  deps: Deps,
  input: { language: string; eventIds: string[]; questions: TriviaQuestion[] },
): Promise<number> {
  const questions = input.questions.map((q) => ({ ...q, _id: triviaId(q.question) }));
  await editQuestions(deps, input.eventIds, input.language, (current) => {
    const list = [...current];
    for (const q of questions) {
      const at = list.findIndex((x) => x._id === q._id);
      if (at >= 0) list[at] = q;
      else list.push(q);
    }
    return list;
  });
  return input.questions.length;
}

export async function deleteQuestions(
  deps: Deps,
  input: { language: string; eventIds: string[]; questionIds: string[] },
): Promise<number> {
  const ids = new Set(input.questionIds);
  let deleted = 0;
  await editQuestions(deps, input.eventIds, input.language, (list) => {
    const kept = list.filter((q) => !ids.has(q._id));
    deleted += list.length - kept.length;
    return kept;
  });
  return deleted;
}

/** The CSV the import reads back (header row + one row per question). */
export function questionsCsv(questions: TriviaQuestion[]): string {
  const lines = [TRIVIA_CSV_COLUMNS.join(',')];
  for (const q of questions) lines.push(TRIVIA_CSV_COLUMNS.map((c) => csvCell(String(q[c]))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
