import type { Deps } from '../../deps.ts';
import { notFound, ERR } from '../../errors.ts';
import { publicQuestions } from '../template/index.ts';

/**
 * A queued fan's trivia answer, checked here: the questions the phone gets carry no right answer
 * (docs/security.md §20). A question the event no longer asks (trivia off, deleted) is 404.
 */
export async function checkTriviaAnswer(
  deps: Deps,
  slugDate: string,
  language: string,
  input: { questionId: string; answer: 1 | 2 },
): Promise<{ correct: boolean }> {
  const question = (await publicQuestions(deps, slugDate, language)).find((q) => q._id === input.questionId);
  if (!question) throw notFound(ERR.attendeeApp.triviaQuestionGone);
  return { correct: question.correctAnswer === input.answer };
}
