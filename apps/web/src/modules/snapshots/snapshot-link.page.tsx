import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { openLightbox } from './lightbox.store.ts';

/** /snapshot/:snapshotId opens the lightbox on that photo, then shows the root path (spec 1 §2). */
export function SnapshotLinkPage() {
  const { snapshotId } = useParams();
  const navigate = useNavigate();
  useEffect(() => {
    if (snapshotId) openLightbox(snapshotId);
    void navigate('/', { replace: true });
  }, [snapshotId, navigate]);
  return null;
}
