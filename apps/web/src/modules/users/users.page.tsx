import { PlaceholderPage } from '../../ui/placeholder.page.tsx';

export function UsersPage() {
  return <PlaceholderPage title="Users" />;
}
