import { PlaceholderPage } from '../../ui/placeholder.page.tsx';

export function RolesPage() {
  return <PlaceholderPage title="Roles" />;
}
