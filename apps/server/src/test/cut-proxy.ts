import { connect, createServer, type Socket } from 'node:net';

/**
 * PostgreSQL's answer to a connection while it starts up or shuts down: an ErrorResponse
 * (FATAL, SQLSTATE 57P03), sent after the client's first message, then the connection closes.
 */
function startingUpAnswer(): Buffer {
  const fields = [
    ['S', 'FATAL'],
    ['V', 'FATAL'],
    ['C', '57P03'],
    ['M', 'the database system is starting up'],
  ];
  const body = Buffer.concat([...fields.map(([k, v]) => Buffer.from(`${k}${v}\0`)), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/**
 * A TCP proxy in front of a real server (PostgreSQL, Redis) that a test can cut and restore:
 * the outage is real (connections drop, new ones are refused) without stopping the machine's
 * shared service. `cut` drops every connection and closes new ones at once; `refuse` also
 * stops listening, so connecting fails with ECONNREFUSED as with a stopped server;
 * `startingUp` answers new connections as a starting PostgreSQL does (57P03); `silent` takes
 * them and never answers (a server that hangs, or packets dropped). `retarget` sends
 * new connections elsewhere, as a load balancer does when an instance dies.
 */
export async function cutProxy(host: string, port: number) {
  const open = new Set<Socket>();
  let up = true;
  let startingUp = false;
  let silent = false;
  let target = { host, port };
  const server = createServer((client) => {
    if (silent) {
      // Taken, never answered: the client waits for its own connect timeout.
      open.add(client);
      client.on('error', () => client.destroy()).on('close', () => open.delete(client));
      return;
    }
    if (startingUp) {
      client.once('data', () => client.end(startingUpAnswer()));
      client.on('error', () => client.destroy());
      return;
    }
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
  const listenPort = (server.address() as { port: number }).port;
  const cut = () => {
    up = false;
    for (const s of open) s.destroy();
  };
  return {
    port: listenPort,
    cut,
    refuse: async () => {
      cut();
      await new Promise((r) => server.close(r));
    },
    startingUp: () => {
      cut();
      startingUp = true;
    },
    silent: () => {
      cut();
      silent = true;
    },
    /** Back to passing connections through (listening again after `refuse`, on the same port). */
    restore: () => {
      up = true;
      startingUp = false;
      silent = false;
      if (!server.listening) server.listen(listenPort, '127.0.0.1');
    },
    retarget: (nextHost: string, nextPort: number) => void (target = { host: nextHost, port: nextPort }),
    close: async () => {
      cut();
      if (server.listening) await new Promise((r) => server.close(r));
    },
  };
}
