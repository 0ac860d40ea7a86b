import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '../config.ts';

/**
 * The server's own origin for a request: PUBLIC_URL's when set (behind a proxy the Host
 * header is whatever the client sent), else the request's scheme and Host.
 */
export function ownOrigin(config: AppConfig, protocol: string, host: string | undefined): string {
  return config.publicOrigin ?? `${protocol}://${host ?? ''}`;
}

export function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * socket.io handshake (HTTP upgrade or polling): a browser always sends Origin on a
 * websocket, so an Origin that is not ours means another site drives a logged-in console.
 * Camera hosts are not browsers and send none.
 */
export function handshakeOriginAllowed(config: AppConfig, req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const forwarded = (name: string) => {
    const v = req.headers[name];
    return config.trustProxy !== false && typeof v === 'string' ? v.split(',')[0].trim() : undefined;
  };
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const protocol = forwarded('x-forwarded-proto') ?? (encrypted ? 'https' : 'http');
  return origin === ownOrigin(config, protocol, forwarded('x-forwarded-host') ?? req.headers.host);
}

/** Fastify's trustProxy from TRUST_PROXY: a hop count trusts that many proxies from our side. */
export function trustProxyOption(v: AppConfig['trustProxy']) {
  return typeof v === 'number' ? (_addr: string, hop: number) => hop < v : v;
}
