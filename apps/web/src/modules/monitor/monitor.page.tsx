import { PlaceholderPage } from '../../ui/placeholder.page.tsx';

export function MonitorPage() {
  return <PlaceholderPage title="Monitor" />;
}
