import { Box, Group, ScrollArea, Stack } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { CameraTile, type TileActions } from './camera-tile.tsx';
import type { MonitorCamera } from './monitor.hooks.ts';

const GAP = 10;
/** Height of the label bar above a tile's 16:9 stream (monitor.module.css .labelBar). */
const LABEL_H = 26;
/** Height of a tile's label bar, and its info and controls under the 16:9 stream. */
const INFO_H = 104 + LABEL_H;
const BIG_SIDE_RATIO = 0.26;
/** The strip under the big camera needs at least this much height, and uses at most that. */
const MIN_STRIP_H = 150;
const MAX_STRIP_H = 240;
const MIN_STRIP_TILE_W = 180;
/** Below this a tile's controls (Kick, Ban, power, pan/zoom) stop fitting on their lines. */
const MIN_TILE_W = 320;

/** The widest tile for which `n` tiles fit the area, and the number of columns that gives it. */
function fit(n: number, w: number, h: number): { cols: number; tileW: number } {
  let best = { cols: 1, tileW: 0 };
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    const byWidth = (w - GAP * (cols - 1)) / cols;
    const byHeight = ((h - GAP * (rows - 1)) / rows - INFO_H) * (16 / 9);
    const tileW = Math.min(byWidth, byHeight);
    if (tileW > best.tileW) best = { cols, tileW };
  }
  if (best.tileW >= MIN_TILE_W) return best;
  if (w <= MIN_TILE_W) return { cols: 1, tileW: w };
  // Never so small the controls stop fitting: fewer columns that fill the width, and the area
  // scrolls down instead (more columns of the minimum width overflowed to the left, unreachable,
  // at 1024 px with the menu open).
  const cols = Math.max(1, Math.min(n, Math.floor((w + GAP) / (MIN_TILE_W + GAP))));
  return { cols, tileW: (w - GAP * (cols - 1)) / cols };
}

/**
 * Blocks: every camera the same size, as large as the area allows. Big-block: the selected
 * camera large, the others small beside it (click one to bring it forward).
 */
export function CameraGrid({
  cameras,
  layout,
  selected,
  onSelect,
  focus,
  actionsFor,
}: {
  cameras: MonitorCamera[];
  layout: 'blocks' | 'big-block';
  selected: string | null;
  onSelect: (camera: string) => void;
  focus: Record<string, string>;
  actionsFor: (cam: MonitorCamera) => TileActions;
}) {
  const { ref, width, height } = useElementSize();

  if (layout === 'big-block') {
    const main = cameras.find((c) => c.camera === selected) ?? cameras[0];
    const others = cameras.filter((c) => c !== main);
    // The others go beside the big camera or in a strip under it, whichever leaves it larger.
    const sideW = Math.max(200, Math.round(width * BIG_SIDE_RATIO));
    const besideW = Math.min(width - sideW - GAP, (height - INFO_H) * (16 / 9));
    const aboveW = Math.min(width, (height - INFO_H - GAP - MIN_STRIP_H) * (16 / 9));
    const strip = aboveW >= besideW;
    const mainW = strip ? aboveW : besideW;
    const stripH = Math.min(height - (mainW * 9) / 16 - INFO_H - GAP, MAX_STRIP_H);
    // As tall as the strip allows, but all of them under the big camera when they fit.
    const stripTileW = Math.max(
      MIN_STRIP_TILE_W,
      Math.min(((stripH - 10 - LABEL_H) * 16) / 9, (mainW - GAP * (others.length - 1)) / Math.max(1, others.length)),
    );
    const small = others.map((c) => (
      <CameraTile
        key={c.camera}
        cam={c}
        compact
        focusUser={focus[c.camera]}
        actions={actionsFor(c)}
        onSelect={() => onSelect(c.camera)}
        style={strip ? { width: stripTileW, flex: 'none' } : undefined}
      />
    ));
    return (
      <Box
        ref={ref}
        h="100%"
        style={{
          display: 'flex',
          flexDirection: strip ? 'column' : 'row',
          alignItems: strip ? 'center' : 'stretch',
          gap: GAP,
          minHeight: 0,
        }}
        data-testid="camera-grid"
        data-layout="big-block"
      >
        <Box style={{ flex: strip ? 'none' : 1, minWidth: 0, display: 'flex', justifyContent: 'center' }}>
          {main && width > 0 && (
            <CameraTile
              cam={main}
              focusUser={focus[main.camera]}
              actions={actionsFor(main)}
              selected
              style={{ width: mainW, alignSelf: 'flex-start' }}
            />
          )}
        </Box>
        {strip ? (
          <ScrollArea w={mainW} type="hover" style={{ flex: 'none' }}>
            <Group gap={GAP} wrap="nowrap">
              {width > 0 && small}
            </Group>
          </ScrollArea>
        ) : (
          <ScrollArea w={sideW} style={{ flex: 'none' }} type="hover">
            <Stack gap={GAP}>{width > 0 && small}</Stack>
          </ScrollArea>
        )}
      </Box>
    );
  }

  const { cols, tileW } = fit(cameras.length, width, height);
  return (
    <Box ref={ref} h="100%" style={{ overflow: 'auto', minHeight: 0 }}>
      <Box
        data-testid="camera-grid"
        data-layout="blocks"
        style={{
          display: 'grid',
          gridTemplateColumns: `repeat(${cols}, ${Math.floor(tileW)}px)`,
          gap: GAP,
          justifyContent: 'center',
          alignContent: 'start',
        }}
      >
        {width > 0 &&
          cameras.map((c) => <CameraTile key={c.camera} cam={c} focusUser={focus[c.camera]} actions={actionsFor(c)} />)}
      </Box>
    </Box>
  );
}
