import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Badge } from '@mantine/core';
import { IconVideoOff } from '@tabler/icons-react';
import { LIVESTREAM_IDLE_MS } from '@stadiumcam/contract';
import { useSocketEvent } from '../../ui/socket.ts';
import classes from './monitor.module.css';

/**
 * One camera's live stream: JPEG frames from the socket drawn through blob URLs (the old URL
 * is revoked once the next frame is shown), with its fps. "CAMERA OFF" when the camera is off
 * or no frame arrived for 15 s (spec 1 §4 Live stream tile).
 */
export function CameraStream({
  camera,
  on,
  focusUser,
  top,
  bottom,
}: {
  camera: string;
  on: boolean;
  focusUser?: string;
  top?: ReactNode;
  bottom?: ReactNode;
}) {
  const img = useRef<HTMLImageElement>(null);
  const url = useRef<string | null>(null);
  const idle = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [live, setLive] = useState(false);
  const [fps, setFps] = useState(0);

  useSocketEvent('livestream', ({ camera: c, frame, fps: rate }) => {
    if (c !== camera || !img.current) return;
    const next = URL.createObjectURL(new Blob([frame as BlobPart], { type: 'image/jpeg' }));
    const previous = url.current;
    url.current = next;
    img.current.src = next;
    if (previous) URL.revokeObjectURL(previous);
    setLive(true);
    setFps(Math.round(rate));
    clearTimeout(idle.current);
    idle.current = setTimeout(() => setLive(false), LIVESTREAM_IDLE_MS);
  });

  useEffect(
    () => () => {
      clearTimeout(idle.current);
      if (url.current) URL.revokeObjectURL(url.current);
    },
    [],
  );

  const showing = on && live;
  return (
    <div className={classes.stream} data-testid={`stream-${camera}`} data-live={showing}>
      <img ref={img} alt={`${camera} live`} style={{ visibility: showing ? 'visible' : 'hidden' }} />
      {!showing && (
        <div className={classes.off} data-testid={`camera-off-${camera}`}>
          <IconVideoOff size={28} />
          CAMERA OFF
        </div>
      )}
      {focusUser !== undefined && (
        <div className={classes.focus} data-testid={`focus-${camera}`}>
          <div className={classes.focusFrame} />
          <span className={classes.focusLabel}>Taking photo · {focusUser}</span>
        </div>
      )}
      <div className={classes.overlayTop}>
        {top}
        {showing && (
          <Badge
            size="sm"
            variant="filled"
            color="dark"
            ff="monospace"
            style={{ flex: 'none' }}
            data-testid={`fps-${camera}`}
          >
            {fps} fps
          </Badge>
        )}
      </div>
      {bottom && <div className={classes.overlayBottom}>{bottom}</div>}
    </div>
  );
}
