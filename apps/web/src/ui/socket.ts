import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ConsoleClientEvents, ConsoleServerEvents } from '@stadiumcam/contract/lite';

export type ConsoleSocket = Socket<ConsoleServerEvents, ConsoleClientEvents>;

let socket: ConsoleSocket | null = null;
const reconnectListeners = new Set<() => void>();

/**
 * Runs `cb` each time the console socket connects after a drop or a failed try: what the server
 * pushed meanwhile is lost, so the caller catches up over REST (providers.tsx refetches every query).
 */
export function onConsoleReconnect(cb: () => void): () => void {
  reconnectListeners.add(cb);
  return () => reconnectListeners.delete(cb);
}

/** The one /console connection (cookie session), opened on first use, closed at logout. */
export function getConsoleSocket(): ConsoleSocket {
  if (socket) return socket;
  const s: ConsoleSocket = io('/console', { transports: ['websocket'], withCredentials: true });
  // The server closes a socket when its user's roles change (docs/security.md): reconnect at
  // once so it holds the new permissions. An ended session then fails the handshake and stops.
  // Any connect after a drop or a failed try catches up, the first one too when it only came
  // on a retry: what was fetched over REST meanwhile may have missed pushes.
  let missed = false;
  s.on('disconnect', (reason) => {
    missed = true;
    if (reason === 'io server disconnect' && socket === s) s.connect();
  });
  s.io.on('reconnect_attempt', () => (missed = true));
  s.on('connect', () => {
    if (missed) reconnectListeners.forEach((l) => l());
    missed = false;
  });
  socket = s;
  return s;
}

export function closeConsoleSocket(): void {
  socket?.disconnect();
  socket = null;
}

/** Subscribes to one server event for the component's lifetime; the handler may change freely. */
export function useSocketEvent<E extends keyof ConsoleServerEvents>(event: E, handler: ConsoleServerEvents[E]): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    const s = getConsoleSocket();
    const listener = ((...args: unknown[]) => (ref.current as (...a: unknown[]) => void)(...args)) as never;
    s.on(event, listener);
    return () => {
      s.off(event, listener);
    };
  }, [event]);
}
