import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PAN_LIMIT, TILT_LIMIT, panoramaRaw, renderFrame } from '@stadiumcam/venue-sim';

/*
 * An ONVIF Profile S PTZ camera for tests: SOAP 1.2 over HTTP on loopback, answering what the
 * `onvif` library and the ONVIF host use: the device service (GetSystemDateAndTime,
 * GetCapabilities), media (GetProfiles, GetVideoSources, GetSnapshotUri) and PTZ (GetNodes,
 * AbsoluteMove, RelativeMove, ContinuousMove, Stop, GetStatus, GotoHomePosition). Every call but
 * GetSystemDateAndTime must carry a valid WS-UsernameToken (password digest, Created within five
 * minutes), else the camera answers a ter:NotAuthorized fault as real ones do. The snapshot URI
 * asks for HTTP digest auth. Snapshots are the venue simulator's bowl seen from the emulated
 * position (x, y in −1..1 span the bowl's pan and tilt limits; zoom 0..1), so aiming changes
 * the picture. Moves take `moveMs` (MoveStatus MOVING meanwhile). Every SOAP call is recorded.
 */
export type Position = { x: number; y: number; zoom: number };
export type SoapCall = { action: string; position?: Position; at: Position };
export type SnapshotMode = 'ok' | 'slow' | 'html' | 'huge';

export type EmulatorOptions = {
  name: string;
  username?: string;
  password?: string;
  /** false: a fixed camera (no PTZ service, no PTZ configuration in its profile). */
  ptz?: boolean;
  moveMs?: number;
  /** A fixed port (a test that starts the camera after the host tried it); default any free one. */
  port?: number;
};

const NS =
  'xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:tt="http://www.onvif.org/ver10/schema" ' +
  'xmlns:tds="http://www.onvif.org/ver10/device/wsdl" xmlns:trt="http://www.onvif.org/ver10/media/wsdl" ' +
  'xmlns:tptz="http://www.onvif.org/ver20/ptz/wsdl" xmlns:ter="http://www.onvif.org/ver10/error"';
const envelope = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><s:Envelope ${NS}><s:Body>${body}</s:Body></s:Envelope>`;
const fault = (code: string, reason: string) =>
  envelope(
    `<s:Fault><s:Code><s:Value>s:Sender</s:Value><s:Subcode><s:Value>${code}</s:Value></s:Subcode></s:Code>` +
      `<s:Reason><s:Text xml:lang="en">${reason}</s:Text></s:Reason></s:Fault>`,
  );
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const tag = (xml: string, name: string) => new RegExp(`<(?:\\w+:)?${name}(?:\\s[^>]*)?>([^<]*)<`).exec(xml)?.[1];

export class OnvifEmulator {
  readonly username: string;
  password: string;
  readonly ptz: boolean;
  moveMs: number;
  snapshotMode: SnapshotMode = 'ok';
  position: Position = { x: 0, y: 0, zoom: 0 };
  readonly calls: SoapCall[] = [];
  /** Positions the snapshots were taken at, in order. */
  readonly snapshots: Position[] = [];
  private moving: { from: Position; to: Position; start: number } | null = null;
  private velocity: { x: number; y: number; since: number } | null = null;
  private server: http.Server;
  private readonly sockets = new Set<Socket>();
  private readonly nonces = new Set<string>();
  private cache: { key: string; jpeg: Promise<Buffer> } | null = null;
  port = 0;

  constructor(private readonly opts: EmulatorOptions) {
    this.username = opts.username ?? 'admin';
    this.password = opts.password ?? 'secret';
    this.ptz = opts.ptz ?? true;
    this.moveMs = opts.moveMs ?? 200;
    this.port = opts.port ?? 0;
    this.server = this.makeServer();
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/onvif/device_service`;
  }

  private makeServer(): http.Server {
    const server = http.createServer((req, res) => void this.handle(req, res));
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    return server;
  }

  /** Listens (again, on the same port after `stop`). */
  async start(): Promise<this> {
    // The bowl renders once per process (about a second): not inside a snapshot's timeout.
    await panoramaRaw();
    if (!this.server.listening) {
      this.server = this.makeServer();
      await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
      this.port = (this.server.address() as AddressInfo).port;
    }
    return this;
  }

  /** Goes away: the port refuses connections until `start`. */
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Where the camera is now (a move under way is interpolated; a continuous move advanced). */
  now(): Position {
    const t = Date.now();
    if (this.moving) {
      const k = this.moveMs ? Math.min(1, (t - this.moving.start) / this.moveMs) : 1;
      const { from, to } = this.moving;
      this.position = {
        x: from.x + (to.x - from.x) * k,
        y: from.y + (to.y - from.y) * k,
        zoom: from.zoom + (to.zoom - from.zoom) * k,
      };
      if (k >= 1) this.moving = null;
    }
    if (this.velocity) {
      const dt = (t - this.velocity.since) / 1000;
      this.velocity.since = t;
      // Full speed crosses half the range per second.
      this.position = {
        x: clamp(this.position.x + this.velocity.x * dt * 0.5, -1, 1),
        y: clamp(this.position.y + this.velocity.y * dt * 0.5, -1, 1),
        zoom: this.position.zoom,
      };
    }
    return { ...this.position };
  }

  private moveTo(to: Position): void {
    this.velocity = null;
    const target = { x: clamp(to.x, -1, 1), y: clamp(to.y, -1, 1), zoom: clamp(to.zoom, 0, 1) };
    this.moving = { from: this.now(), to: target, start: Date.now() };
  }

  /** The bowl view at a position: what the snapshot shows. */
  static view(p: Position) {
    return { pan: Math.round(p.x * PAN_LIMIT), tilt: Math.round(p.y * TILT_LIMIT), zoom: p.zoom };
  }

  private checkToken(xml: string): boolean {
    const user = tag(xml, 'Username');
    const digest = tag(xml, 'Password');
    const nonce = tag(xml, 'Nonce');
    const created = tag(xml, 'Created');
    if (!user || !digest || !nonce || !created) return false;
    if (Math.abs(Date.parse(created) - Date.now()) > 5 * 60_000) return false;
    const want = createHash('sha1')
      .update(
        Buffer.concat([
          Buffer.from(nonce, 'base64'),
          Buffer.from(created, 'ascii'),
          Buffer.from(this.password, 'ascii'),
        ]),
      )
      .digest('base64');
    return user === this.username && digest === want;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url?.startsWith('/snapshot.jpg')) return this.snapshot(req, res);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const xml = Buffer.concat(chunks).toString('utf8');
    const action = /<(?:\w+:)?Body[^>]*>\s*<(?:\w+:)?(\w+)/.exec(xml)?.[1] ?? '';
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/soap+xml; charset=utf-8' });
      res.end(body);
    };
    if (action !== 'GetSystemDateAndTime' && !this.checkToken(xml)) {
      return send(400, fault('ter:NotAuthorized', 'Sender not authorized'));
    }
    const ptzPath = req.url === '/onvif/ptz_service';
    if (ptzPath && !this.ptz) return send(400, fault('ter:ActionNotSupported', 'No PTZ service'));
    const vec = (): Position | undefined => {
      const pt = /<(?:\w+:)?PanTilt[^>]*\bx="([^"]+)"[^>]*\by="([^"]+)"/.exec(xml);
      const z = /<(?:\w+:)?Zoom[^>]*\bx="([^"]+)"/.exec(xml);
      if (!pt && !z) return undefined;
      return { x: Number(pt?.[1] ?? 0), y: Number(pt?.[2] ?? 0), zoom: Number(z?.[1] ?? 0) };
    };
    const position = vec();
    this.calls.push({ action, ...(position ? { position } : {}), at: this.now() });
    const base = `http://127.0.0.1:${this.port}`;
    const r = (name: string, inner = '') => send(200, envelope(`<${name}Response>${inner}</${name}Response>`));
    switch (action) {
      case 'GetSystemDateAndTime': {
        const d = new Date();
        return r(
          'tds:GetSystemDateAndTime',
          `<tds:SystemDateAndTime><tt:DateTimeType>Manual</tt:DateTimeType><tt:DaylightSavings>false</tt:DaylightSavings>` +
            `<tt:UTCDateTime><tt:Time><tt:Hour>${d.getUTCHours()}</tt:Hour><tt:Minute>${d.getUTCMinutes()}</tt:Minute><tt:Second>${d.getUTCSeconds()}</tt:Second></tt:Time>` +
            `<tt:Date><tt:Year>${d.getUTCFullYear()}</tt:Year><tt:Month>${d.getUTCMonth() + 1}</tt:Month><tt:Day>${d.getUTCDate()}</tt:Day></tt:Date></tt:UTCDateTime></tds:SystemDateAndTime>`,
        );
      }
      case 'GetCapabilities':
        return r(
          'tds:GetCapabilities',
          `<tds:Capabilities><tt:Device><tt:XAddr>${base}/onvif/device_service</tt:XAddr></tt:Device>` +
            `<tt:Media><tt:XAddr>${base}/onvif/media_service</tt:XAddr></tt:Media>` +
            (this.ptz ? `<tt:PTZ><tt:XAddr>${base}/onvif/ptz_service</tt:XAddr></tt:PTZ>` : '') +
            `</tds:Capabilities>`,
        );
      case 'GetProfiles':
        return r(
          'trt:GetProfiles',
          `<trt:Profiles token="Profile_1" fixed="true"><tt:Name>mainStream</tt:Name>` +
            `<tt:VideoSourceConfiguration token="VSC_1"><tt:Name>VSC</tt:Name><tt:UseCount>1</tt:UseCount><tt:SourceToken>VS_1</tt:SourceToken><tt:Bounds x="0" y="0" width="1280" height="720"/></tt:VideoSourceConfiguration>` +
            `<tt:VideoEncoderConfiguration token="VEC_1"><tt:Name>VEC</tt:Name><tt:UseCount>1</tt:UseCount><tt:Encoding>JPEG</tt:Encoding><tt:Resolution><tt:Width>1280</tt:Width><tt:Height>720</tt:Height></tt:Resolution><tt:Quality>5</tt:Quality></tt:VideoEncoderConfiguration>` +
            (this.ptz
              ? `<tt:PTZConfiguration token="PTZ_1"><tt:Name>PTZ</tt:Name><tt:UseCount>1</tt:UseCount><tt:NodeToken>PTZNODE_1</tt:NodeToken></tt:PTZConfiguration>`
              : '') +
            `</trt:Profiles>`,
        );
      case 'GetVideoSources':
        return r(
          'trt:GetVideoSources',
          `<trt:VideoSources token="VS_1"><tt:Framerate>25</tt:Framerate><tt:Resolution><tt:Width>1280</tt:Width><tt:Height>720</tt:Height></tt:Resolution></trt:VideoSources>`,
        );
      case 'GetSnapshotUri':
        return r(
          'trt:GetSnapshotUri',
          `<trt:MediaUri><tt:Uri>${base}/snapshot.jpg</tt:Uri><tt:InvalidAfterConnect>false</tt:InvalidAfterConnect><tt:InvalidAfterReboot>false</tt:InvalidAfterReboot><tt:Timeout>PT0S</tt:Timeout></trt:MediaUri>`,
        );
      case 'GetNodes': {
        const range = (min: number, max: number) => `<tt:Min>${min}</tt:Min><tt:Max>${max}</tt:Max>`;
        return r(
          'tptz:GetNodes',
          `<tptz:PTZNode token="PTZNODE_1" FixedHomePosition="false"><tt:Name>Emulated PTZ</tt:Name><tt:SupportedPTZSpaces>` +
            `<tt:AbsolutePanTiltPositionSpace><tt:URI>http://www.onvif.org/ver10/tptz/PanTiltSpaces/PositionGenericSpace</tt:URI><tt:XRange>${range(-1, 1)}</tt:XRange><tt:YRange>${range(-1, 1)}</tt:YRange></tt:AbsolutePanTiltPositionSpace>` +
            `<tt:AbsoluteZoomPositionSpace><tt:URI>http://www.onvif.org/ver10/tptz/ZoomSpaces/PositionGenericSpace</tt:URI><tt:XRange>${range(0, 1)}</tt:XRange></tt:AbsoluteZoomPositionSpace>` +
            `</tt:SupportedPTZSpaces><tt:MaximumNumberOfPresets>0</tt:MaximumNumberOfPresets><tt:HomeSupported>true</tt:HomeSupported></tptz:PTZNode>`,
        );
      }
      case 'AbsoluteMove':
        this.moveTo(position ?? this.now());
        return r('tptz:AbsoluteMove');
      case 'RelativeMove': {
        const at = this.now();
        const d = position ?? { x: 0, y: 0, zoom: 0 };
        this.moveTo({ x: at.x + d.x, y: at.y + d.y, zoom: at.zoom + d.zoom });
        return r('tptz:RelativeMove');
      }
      case 'ContinuousMove':
        this.now();
        this.moving = null;
        this.velocity = { x: clamp(position?.x ?? 0, -1, 1), y: clamp(position?.y ?? 0, -1, 1), since: Date.now() };
        return r('tptz:ContinuousMove');
      case 'Stop':
        this.now();
        this.velocity = null;
        this.moving = null;
        return r('tptz:Stop');
      case 'GotoHomePosition':
        this.moveTo({ x: 0, y: 0, zoom: 0 });
        return r('tptz:GotoHomePosition');
      case 'GetStatus': {
        const p = this.now();
        const state = this.moving || this.velocity ? 'MOVING' : 'IDLE';
        return r(
          'tptz:GetStatus',
          `<tptz:PTZStatus><tt:Position><tt:PanTilt x="${p.x}" y="${p.y}" space="http://www.onvif.org/ver10/tptz/PanTiltSpaces/PositionGenericSpace"/><tt:Zoom x="${p.zoom}" space="http://www.onvif.org/ver10/tptz/ZoomSpaces/PositionGenericSpace"/></tt:Position>` +
            `<tt:MoveStatus><tt:PanTilt>${state}</tt:PanTilt><tt:Zoom>${state}</tt:Zoom></tt:MoveStatus><tt:UtcTime>${new Date().toISOString()}</tt:UtcTime></tptz:PTZStatus>`,
        );
      }
      default:
        return send(400, fault('ter:ActionNotSupported', `Optional Action Not Implemented: ${action}`));
    }
  }

  /** HTTP digest (MD5, qop=auth) as most cameras ask for their snapshot URI. */
  private digestOk(req: http.IncomingMessage): boolean {
    const h = req.headers.authorization ?? '';
    if (!h.startsWith('Digest ')) return false;
    const p: Record<string, string> = {};
    for (const m of h.slice(7).matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)) p[m[1]] = m[2] ?? m[3];
    if (!this.nonces.has(p.nonce) || p.username !== this.username) return false;
    const md5 = (s: string) => createHash('md5').update(s).digest('hex');
    const ha1 = md5(`${this.username}:emulator:${this.password}`);
    const ha2 = md5(`GET:${p.uri}`);
    return p.response === md5(`${ha1}:${p.nonce}:${p.nc}:${p.cnonce}:${p.qop}:${ha2}`);
  }

  private async snapshot(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!this.digestOk(req)) {
      const nonce = randomBytes(12).toString('hex');
      this.nonces.add(nonce);
      res.writeHead(401, {
        'www-authenticate': `Digest realm="emulator", qop="auth", nonce="${nonce}", algorithm=MD5`,
      });
      return void res.end();
    }
    const at = this.now();
    switch (this.snapshotMode) {
      case 'slow':
        // Never answers in time (the host's timeout ends it).
        await new Promise((r) => setTimeout(r, 30_000).unref());
        return void res.destroy();
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<html><body>Login</body></html>');
      case 'huge': {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        const chunk = Buffer.alloc(1 << 20, 0xff);
        chunk[1] = 0xd8;
        for (let i = 0; i < 64 && !res.destroyed; i++) {
          if (!res.write(chunk)) await new Promise((r) => res.once('drain', r).once('close', r));
          chunk[1] = 0xff;
        }
        return void res.end();
      }
      case 'ok': {
        this.snapshots.push(at);
        const key = `${at.x.toFixed(4)},${at.y.toFixed(4)},${at.zoom.toFixed(3)}`;
        if (this.cache?.key !== key) {
          const jpeg = renderFrame(OnvifEmulator.view(at), {
            camera: this.opts.name,
            target: null,
            label: 'ONVIF emulator',
            width: 960,
            height: 540,
            quality: 70,
          });
          this.cache = { key, jpeg };
        }
        const jpeg = await this.cache.jpeg;
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length });
        return void res.end(jpeg);
      }
    }
  }
}
