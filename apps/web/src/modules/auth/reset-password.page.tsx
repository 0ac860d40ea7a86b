import { PlaceholderPage } from '../../ui/placeholder.page.tsx';

export function ResetPasswordPage() {
  return <PlaceholderPage title="Reset password" />;
}
