import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ConsoleClientEvents, ConsoleServerEvents } from '@stadiumcam/contract';

export type ConsoleSocket = Socket<ConsoleServerEvents, ConsoleClientEvents>;

let socket: ConsoleSocket | null = null;

/** The one /console connection (cookie session), opened on first use, closed at logout. */
export function getConsoleSocket(): ConsoleSocket {
  socket ??= io('/console', { transports: ['websocket'], withCredentials: true });
  return socket;
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
