import { PlaceholderPage } from '../../ui/placeholder.page.tsx';

/** Being built (issue 12). */
export function SharePage() {
  return <PlaceholderPage title="Share" />;
}
