import { useEffect, useRef } from 'react';
import { Kbd, Table } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { SnapshotListItem } from '@stadiumcam/contract';
import { USER_FILTER_ID } from './album-filters.tsx';
import { useLightbox } from './lightbox.store.ts';

export const SHORTCUTS: [string, string][] = [
  ['F', 'Favourite / unfavourite'],
  ['B', 'Ban / unban the photo'],
  ['Del', 'Delete'],
  ['D', 'Download'],
  ['← →', 'Previous / next page (photo in the lightbox)'],
  ['← → ↑ ↓', 'In the photos: move between them (one Tab stop)'],
  ['Home / End', 'In the photos: first / last of the row (with Ctrl: of the page)'],
  ['Enter', 'In the photos: open the photo'],
  ['F2 / Esc', 'In the photos: reach the photo’s buttons with Tab / back to the photos'],
  ['Space', 'Select / deselect'],
  ['Ctrl/⌘ + A', 'Select every photo of the page'],
  ['/', 'Search by user id'],
  ['?', 'This list'],
];

export function showShortcuts(): void {
  modals.open({
    title: 'Keyboard shortcuts',
    'data-testid': 'shortcuts',
    children: (
      <Table withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {SHORTCUTS.map(([key, what]) => (
            <Table.Tr key={key}>
              <Table.Td w={120}>
                <Kbd>{key}</Kbd>
              </Table.Td>
              <Table.Td>{what}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    ),
  } as Parameters<typeof modals.open>[0]);
}

type Handlers = {
  items: SnapshotListItem[];
  selected: SnapshotListItem[];
  onFavorite: (photos: SnapshotListItem[]) => void;
  onBan: (photos: SnapshotListItem[]) => void;
  onDelete: (photos: SnapshotListItem[]) => void;
  onDownload: (photo: SnapshotListItem) => void;
  onToggleSelect: (index: number) => void;
  onSelectAll: () => void;
  onPage: (delta: number) => void;
};

/**
 * The album grid's keys (docs/album.md): F, B, Del and D act on the photo under the pointer or
 * the grid's focused tile, else on the selection; Space selects that photo; ←/→ change page
 * (outside the grid, where the arrows move between photos). The
 * lightbox has its own (same letters, on the photo shown); none fire while typing or in a dialog.
 */
export function useAlbumKeys(h: Handlers) {
  const ref = useRef(h);
  useEffect(() => {
    ref.current = h;
  });
  const lightboxOpen = useLightbox() !== null;

  useEffect(() => {
    if (lightboxOpen) return;
    const handle = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      // Typing fields keep their keys; a focused checkbox or switch (a tile's select, Auto
      // Refresh) does not: the operator just clicked it and goes on with the keys.
      if (
        target?.closest(
          'input:not([type="checkbox"]):not([type="radio"]), textarea, select, [contenteditable="true"], [role="slider"], [role="dialog"]',
        )
      )
        return;
      // The grid moves its focus with the arrows itself (album-grid.tsx).
      if (target?.closest('[role="grid"]') && e.key.startsWith('Arrow')) return;
      const { items, selected, ...act } = ref.current;
      // The photo under the pointer, else the grid's focused tile.
      const tile =
        document.querySelector<HTMLElement>('[data-testid="snapshot-tile"]:hover') ??
        (target?.getAttribute('role') === 'gridcell' ? target : null);
      const index = tile ? items.findIndex((s) => s._id === tile.dataset.id) : -1;
      const photos = index >= 0 ? [items[index]] : selected;
      const mod = e.ctrlKey || e.metaKey;
      let done = true;
      if (mod && e.key.toLowerCase() === 'a') act.onSelectAll();
      else if (mod || e.altKey) done = false;
      else if (e.key === 'f' || e.key === 'F') act.onFavorite(photos);
      else if (e.key === 'b' || e.key === 'B') act.onBan(photos);
      else if (e.key === 'Delete') act.onDelete(photos);
      else if ((e.key === 'd' || e.key === 'D') && photos.length === 1) act.onDownload(photos[0]);
      else if (e.key === ' ' && index >= 0) act.onToggleSelect(index);
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') act.onPage(e.key === 'ArrowLeft' ? -1 : 1);
      else if (e.key === '/') document.getElementById(USER_FILTER_ID)?.focus();
      else if (e.key === '?') showShortcuts();
      else done = false;
      if (done) e.preventDefault();
    };
    window.addEventListener('keydown', handle);
    return () => window.removeEventListener('keydown', handle);
  }, [lightboxOpen]);
}
