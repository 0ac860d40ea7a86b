import {
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { MSG, type SnapshotListItem } from '@stadiumcam/contract';
import { SnapshotTile, TileMenu, type TileAbilities, type TileActions, type TileMenuState } from './snapshot-tile.tsx';
import classes from './snapshot-tile.module.css';

/** The narrowest tile: four columns beside the menu and the filters at 1280 px (issue 28 point 5). */
export const MIN_TILE_WIDTH = 160;
/** Mantine's `sm` spacing, the gap between tiles. */
const GAP = 12;

/** How many tiles fit a row `width` wide. */
export const columnsFor = (width: number) => Math.max(1, Math.floor((width + GAP) / (MIN_TILE_WIDTH + GAP)));

type GridProps = TileActions & {
  gridRef: RefObject<HTMLDivElement | null>;
  items: SnapshotListItem[];
  selected: Set<string>;
  /** The previous page, shown while the next one loads. */
  dimmed: boolean;
  showOverlays: boolean;
  can: TileAbilities;
  menu: TileMenuState;
  onCloseMenu: () => void;
  /** The photo whose tile takes focus (the lightbox's last photo when it closes); then cleared. */
  focusId: string | null;
  onFocused: () => void;
};

const TILE = '[data-testid="snapshot-tile"]';

/**
 * The page's tiles as one ARIA grid (WAI-ARIA grid pattern, issue 28 point 3): one Tab stop, the
 * arrow keys move between photos (a roving tabindex), Home/End to a row's ends and Ctrl+Home/End to
 * the page's; Enter opens the photo; F2 gives Tab the tile's own buttons, Escape takes it back.
 * Rows follow the width (a ResizeObserver counts the columns). Memoised: live counts and stats
 * re-render the page only.
 */
export const AlbumGrid = memo(function AlbumGrid({
  gridRef,
  items,
  selected,
  dimmed,
  showOverlays,
  can,
  menu,
  onCloseMenu,
  focusId,
  onFocused,
  ...on
}: GridProps) {
  const helpId = useId();
  const [cols, setCols] = useState(4);
  const [activeId, setActiveId] = useState<string | null>(null);
  /** The tile whose buttons Tab reaches (F2), if any. */
  const [insideId, setInsideId] = useState<string | null>(null);
  const active = items.some((s) => s._id === activeId) ? activeId : (items[0]?._id ?? null);

  useLayoutEffect(() => {
    const el = gridRef.current;
    if (!el) return;
    const measure = () => setCols(columnsFor(el.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [gridRef]);

  const cell = useCallback(
    (id: string) => gridRef.current?.querySelector<HTMLElement>(`${TILE}[data-id="${id}"]`),
    [gridRef],
  );
  const focusCell = useCallback(
    (index: number) => {
      const s = items[Math.min(items.length - 1, Math.max(0, index))];
      if (!s) return;
      setActiveId(s._id);
      setInsideId(null);
      cell(s._id)?.focus();
    },
    [items, cell],
  );

  // The lightbox closed on a photo of this page: its tile takes focus (else the one that opened it).
  useEffect(() => {
    if (!focusId) return;
    const index = items.findIndex((s) => s._id === focusId);
    if (index >= 0) focusCell(index);
    onFocused();
  }, [focusId, items, focusCell, onFocused]);

  const handleKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const tile = (e.target as HTMLElement).closest<HTMLElement>(TILE);
    if (!tile) return;
    const index = items.findIndex((s) => s._id === tile.dataset.id);
    if (index < 0) return;
    if (e.target !== tile) {
      // On one of the tile's buttons (after F2): Escape goes back to the grid.
      if (e.key === 'Escape' && !e.defaultPrevented) {
        e.preventDefault();
        focusCell(index);
      }
      return;
    }
    const rowStart = index - (index % cols);
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      ArrowDown: index + cols < items.length ? index + cols : index,
      ArrowUp: index - cols >= 0 ? index - cols : index,
      Home: e.ctrlKey ? 0 : rowStart,
      End: e.ctrlKey ? items.length - 1 : Math.min(items.length - 1, rowStart + cols - 1),
    };
    if (e.key in moves) {
      e.preventDefault();
      focusCell(moves[e.key]);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      on.onOpen(items[index]);
    } else if (e.key === 'F2') {
      e.preventDefault();
      setInsideId(items[index]._id);
      // Its buttons become tabbable on the next render.
      requestAnimationFrame(() => tile.querySelector<HTMLElement>('button, input')?.focus());
    }
  };

  // Focus entering a tile (a click on any of its buttons too) makes it the grid's Tab stop;
  // leaving the tile's buttons ends the F2 mode.
  const handleFocus = (e: FocusEvent<HTMLDivElement>) => {
    const id = (e.target as HTMLElement).closest<HTMLElement>(TILE)?.dataset.id;
    if (id && id !== activeId) setActiveId(id);
  };
  const handleBlur = (e: FocusEvent<HTMLDivElement>) => {
    if (!insideId) return;
    const next = (e.relatedTarget as HTMLElement | null)?.closest<HTMLElement>(TILE)?.dataset.id;
    if (next !== insideId) setInsideId(null);
  };

  const rows: SnapshotListItem[][] = [];
  for (let i = 0; i < items.length; i += cols) rows.push(items.slice(i, i + cols));

  return (
    <>
      <div
        ref={gridRef}
        role="grid"
        aria-label={MSG.a11y.albumGrid}
        aria-describedby={helpId}
        aria-multiselectable={can.select || undefined}
        aria-rowcount={rows.length}
        aria-colcount={cols}
        data-testid="album-grid"
        data-cols={cols}
        className={classes.grid}
        style={{ opacity: dimmed ? 0.6 : 1, ['--album-cols' as string]: cols }}
        onKeyDown={handleKey}
        onFocus={handleFocus}
        onBlur={handleBlur}
      >
        {rows.map((row, r) => (
          <div role="row" key={row[0]._id} className={classes.row} aria-rowindex={r + 1}>
            {row.map((s, c) => (
              <SnapshotTile
                key={s._id}
                snapshot={s}
                index={r * cols + c}
                column={c + 1}
                selected={selected.has(s._id)}
                showOverlays={showOverlays}
                can={can}
                tabStop={s._id === active}
                inside={s._id === insideId}
                {...on}
              />
            ))}
          </div>
        ))}
      </div>
      <p id={helpId} hidden>
        {MSG.a11y.albumGridHelp}
      </p>
      <TileMenu
        state={menu}
        onClose={onCloseMenu}
        onBanPhoto={on.onBanPhoto}
        onBanUser={on.onBanUser}
        onDownload={on.onDownload}
      />
    </>
  );
});
