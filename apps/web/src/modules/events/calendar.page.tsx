import { PlaceholderPage } from '../../ui/placeholder.page.tsx';

export function CalendarPage() {
  return <PlaceholderPage title="Calendar" />;
}
