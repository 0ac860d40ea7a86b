import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (PostgreSQL, Redis) that a test can cut and restore:
 * the outage is real (connections drop, new ones are refused) without stopping the machine's
 * shared service. `retarget` sends new connections elsewhere, as a load balancer does when an
 * instance dies.
 */
export async function cutProxy(host: string, port: number) {
  const open = new Set<Socket>();
  let up = true;
  let target = { host, port };
  const server = createServer((client) => {
    if (!up) return client.destroy();
    const upstream = connect(target.port, target.host);
    open.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const cut = () => {
    up = false;
    for (const s of open) s.destroy();
  };
  return {
    port: (server.address() as { port: number }).port,
    cut,
    restore: () => void (up = true),
    retarget: (nextHost: string, nextPort: number) => void (target = { host: nextHost, port: nextPort }),
    close: async () => {
      cut();
      await new Promise((r) => server.close(r));
    },
  };
}
