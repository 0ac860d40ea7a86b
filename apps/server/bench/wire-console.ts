/**
 * A console socket for the realtime bench that speaks socket.io's wire format over a bare
 * WebSocket (engine.io v4, the `/console` namespace) and decodes only what the bench measures.
 * socket.io-client decoded every frame's packet and emitted it through two emitters: a fifth of
 * the load process's main thread, on the same two cores as the server it measures. Frames are
 * counted by their binary attachment; only the named events' JSON is parsed.
 */
import WebSocket from 'ws';

const NSP = '/console';
const ASK_TIMEOUT_MS = 30_000;
type Handler = (payload: any) => void;

export class WireConsole {
  private readonly ws: WebSocket;
  private readonly handlers = new Map<string, Handler>();
  private readonly acks = new Map<number, (answer: any) => void>();
  private nextAck = 0;
  /** Binary attachments received: one per `livestream` frame (the only binary event). */
  frames = 0;

  private constructor(url: string, cookie: string) {
    this.ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, {
      headers: { cookie },
      perMessageDeflate: false,
    });
  }

  /** Opens the socket and joins the console namespace (resolves on its CONNECT answer). */
  static open(url: string, cookie: string): Promise<WireConsole> {
    const c = new WireConsole(url, cookie);
    return new Promise((resolve, reject) => {
      c.ws.on('error', reject);
      c.ws.on('message', (data, isBinary) => {
        if (isBinary) {
          c.frames++;
          return;
        }
        const text = data.toString();
        if (text === '2')
          c.ws.send('3'); // engine.io ping → pong
        else if (text.startsWith('0')) c.ws.send(`40${NSP},`);
        else if (text.startsWith(`40${NSP},`)) resolve(c);
        else if (text.startsWith(`44${NSP},`)) reject(new Error(`console namespace refused: ${text}`));
        else if (text.startsWith(`42${NSP},[`)) c.event(text.slice(NSP.length + 3));
        else if (text.startsWith(`43${NSP},`)) c.ack(text.slice(NSP.length + 3));
      });
    });
  }

  /** Listens to one event; the payload is its first argument. */
  on(event: string, handler: Handler): void {
    this.handlers.set(event, handler);
  }

  /**
   * Emits with an acknowledgement and resolves with the answer's first argument; a lost answer
   * fails the bench after 30 s (socket.io-client's `timeout`, which the bench used) instead of
   * hanging it.
   */
  ask(event: string, ...args: unknown[]): Promise<any> {
    const id = this.nextAck++;
    this.ws.send(`42${NSP},${id}${JSON.stringify([event, ...args])}`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.acks.delete(id);
        reject(new Error(`no answer to '${event}' in ${ASK_TIMEOUT_MS} ms`));
      }, ASK_TIMEOUT_MS);
      this.acks.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
  }

  close(): void {
    this.ws.close();
  }

  private event(json: string): void {
    // '["name",…': the name is read without parsing the payload, so unwatched events cost little.
    const end = json.indexOf('"', 2);
    const handler = this.handlers.get(json.slice(2, end));
    if (handler) handler((JSON.parse(json) as unknown[])[1]);
  }

  private ack(rest: string): void {
    const bracket = rest.indexOf('[');
    const id = Number(rest.slice(0, bracket));
    const answer = (JSON.parse(rest.slice(bracket)) as unknown[])[0];
    this.acks.get(id)?.(answer);
    this.acks.delete(id);
  }
}
