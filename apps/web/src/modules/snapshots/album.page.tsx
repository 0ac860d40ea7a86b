import { PlaceholderPage } from '../../ui/placeholder.page.tsx';

export function AlbumPage() {
  return <PlaceholderPage title="Album" />;
}
