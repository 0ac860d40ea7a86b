import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Badge, Loader } from '@mantine/core';
import { IconPlugConnectedX, IconVideoOff } from '@tabler/icons-react';
import { LIVESTREAM_IDLE_MS, MSG, shortUserId } from '@stadiumcam/contract';
import { useSocketEvent } from '../../ui/socket.ts';
import classes from './monitor.module.css';

/** waiting: on, no frame yet; live: frames coming; lost: on, but no frame for 15 s. */
type Signal = 'waiting' | 'live' | 'lost';

/** Restarts the 15 s wait after which a camera that is on shows "No signal". */
function rearm(idle: { current: ReturnType<typeof setTimeout> | undefined }, setSignal: (s: Signal) => void) {
  clearTimeout(idle.current);
  idle.current = setTimeout(() => setSignal('lost'), LIVESTREAM_IDLE_MS);
}

/**
 * One camera's live stream: JPEG frames from the socket drawn through blob URLs (the old URL
 * is revoked once the next frame is shown). The fps badge is the rate of the frames this console
 * really received in the last 3 s (frames between the first and the last, over the time between
 * them), not what the host says it sends: a count over the last second read 4 at 3 fps whenever
 * four frames 333 ms apart fell in it. "CAMERA OFF" when the camera is off; "No signal" when
 * it is on but no frame came for 15 s (DESIGN §6).
 */
const FPS_WINDOW_MS = 3000;

export function CameraStream({
  camera,
  on,
  focusUser,
  top,
  bottom,
  offLabel = MSG.cameras.cameraOff,
}: {
  camera: string;
  on: boolean;
  /** What a stream that is not on says (the mapping tool's stream is off until it connects). */
  offLabel?: string;
  focusUser?: string;
  top?: ReactNode;
  bottom?: ReactNode;
}) {
  const root = useRef<HTMLDivElement>(null);
  const img = useRef<HTMLImageElement>(null);
  const url = useRef<string | null>(null);
  const idle = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** Frame arrival times of the last FPS_WINDOW_MS, for the fps badge. */
  const arrivals = useRef<number[]>([]);
  const total = useRef(0);
  const [signal, setSignal] = useState<Signal>('waiting');
  const [fps, setFps] = useState(0);

  useSocketEvent('livestream', ({ camera: c, frame }) => {
    if (c !== camera || !img.current) return;
    const next = URL.createObjectURL(new Blob([frame as BlobPart], { type: 'image/jpeg' }));
    const previous = url.current;
    url.current = next;
    img.current.src = next;
    if (previous) URL.revokeObjectURL(previous);
    total.current++;
    // Read by the browser tests and by an operator's console to count frames per camera.
    root.current?.setAttribute('data-frames', String(total.current));
    arrivals.current.push(performance.now());
    setSignal('live');
    rearm(idle, setSignal);
  });

  // A camera that is turned (back) on waits for its first frame again.
  const [wasOn, setWasOn] = useState(on);
  if (wasOn !== on) {
    setWasOn(on);
    setSignal('waiting');
  }

  // While on: 15 s for the next frame before "No signal", and the fps badge once a second.
  useEffect(() => {
    if (!on) return;
    const timer = idle;
    rearm(timer, setSignal);
    const tick = setInterval(() => {
      const since = performance.now() - FPS_WINDOW_MS;
      const a = (arrivals.current = arrivals.current.filter((t) => t > since));
      setFps(a.length < 2 ? a.length : Math.round(((a.length - 1) * 1000) / Math.max(a[a.length - 1] - a[0], 1)));
    }, 1000);
    return () => {
      clearInterval(tick);
      clearTimeout(timer.current);
    };
  }, [on]);

  useEffect(
    () => () => {
      if (url.current) URL.revokeObjectURL(url.current);
    },
    [],
  );

  const showing = on && signal === 'live';
  return (
    <div
      ref={root}
      className={classes.streamBox}
      data-testid={`stream-${camera}`}
      data-live={showing}
      data-signal={on ? signal : 'off'}
    >
      {/* The label bar sits above the picture, not over it: a camera burns its own text into
          the frame's corner (time, seat), which the tile's label must never hide. */}
      <div className={classes.labelBar} data-testid={`label-bar-${camera}`}>
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
      <div className={classes.stream} data-testid={`frame-${camera}`}>
        <img ref={img} alt={`${camera} live`} style={{ visibility: showing ? 'visible' : 'hidden' }} />
        {!on && (
          <div className={classes.off} data-testid={`camera-off-${camera}`}>
            <IconVideoOff size={28} />
            {offLabel}
          </div>
        )}
        {on && signal === 'lost' && (
          <div className={`${classes.off} ${classes.noSignal}`} data-testid={`no-signal-${camera}`}>
            <IconPlugConnectedX size={28} />
            {MSG.cameras.noSignal}
          </div>
        )}
        {on && signal === 'waiting' && (
          <div className={classes.off} data-testid={`connecting-${camera}`}>
            <Loader size="sm" color="gray" />
          </div>
        )}
        {focusUser !== undefined && (
          <div className={classes.focus} data-testid={`focus-${camera}`}>
            <div className={classes.focusFrame} />
            {/* A server-issued fan id is 36 characters: shortened as on the tile, whole in the title. */}
            <span className={classes.focusLabel} title={focusUser}>
              Taking photo · {shortUserId(focusUser)}
            </span>
          </div>
        )}
        {bottom && <div className={classes.overlayBottom}>{bottom}</div>}
      </div>
    </div>
  );
}
