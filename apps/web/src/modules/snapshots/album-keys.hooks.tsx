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
 * The album grid's keys (docs/album.md): F, B, Del and D act on the photo under the pointer,
 * else on the selection; Space selects the photo under the pointer; ←/→ change page. The
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
      const { items, selected, ...act } = ref.current;
      const hovered = document.querySelector<HTMLElement>('[data-testid="snapshot-tile"]:hover');
      const index = hovered ? items.findIndex((s) => s._id === hovered.dataset.id) : -1;
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
