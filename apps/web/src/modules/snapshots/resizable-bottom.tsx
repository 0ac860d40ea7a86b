import { useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { Box } from '@mantine/core';

export const CAROUSEL_MIN = 150;
export const CAROUSEL_DEFAULT = 250;
export const CAROUSEL_INITIAL = 260;

/**
 * The lightbox's bottom carousel: dragged by its top edge, never below 150 px; a double-click
 * on the edge puts it back to the default 250 px (spec 1 §2, §9).
 */
export function ResizableBottom({ children, maxHeight }: { children: ReactNode; maxHeight: number }) {
  const [height, setHeight] = useState(CAROUSEL_INITIAL);
  const drag = useRef<{ startY: number; startHeight: number } | null>(null);
  const clamp = (h: number) => Math.max(CAROUSEL_MIN, Math.min(Math.max(CAROUSEL_MIN, maxHeight), h));

  const handlePointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { startY: e.clientY, startHeight: height };
  };
  const handlePointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    setHeight(clamp(drag.current.startHeight + drag.current.startY - e.clientY));
  };
  const handlePointerUp = () => {
    drag.current = null;
  };

  return (
    <Box
      data-testid="lightbox-carousel"
      style={{ height, flex: 'none', position: 'relative', borderTop: '1px solid var(--mantine-color-dark-4)' }}
    >
      <Box
        role="separator"
        aria-orientation="horizontal"
        aria-label="Resize the photo strip"
        aria-valuemin={CAROUSEL_MIN}
        aria-valuenow={height}
        onPointerDown={handlePointerDown}
        onPointerMove={handlePointerMove}
        onPointerUp={handlePointerUp}
        onDoubleClick={() => setHeight(CAROUSEL_DEFAULT)}
        style={{
          position: 'absolute',
          top: -4,
          left: 0,
          right: 0,
          height: 8,
          cursor: 'row-resize',
          zIndex: 2,
          touchAction: 'none',
        }}
      />
      {children}
    </Box>
  );
}
