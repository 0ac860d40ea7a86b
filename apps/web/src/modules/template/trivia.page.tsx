import { PlaceholderPage } from '../../ui/placeholder.page.tsx';

/** Being built (issue 12). */
export function TriviaPage() {
  return <PlaceholderPage title="Trivia" />;
}
