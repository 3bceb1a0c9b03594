// The game-neutral websocket client: join with seat tokens (or as spectator), act with the last seen seq,
// reconnect with last_seq so the server sends only the missing events (or a snapshot).
import type { LogEntry, RematchOffer, TableInfo, View } from "./api";

export type ConnStatus = "connecting" | "online" | "offline";

export interface ServerError {
  type: "error";
  code: string;
  message: string;
  rule?: string;
  /** The engine's reason (a refused move), as a message id with parameters: the page words it itself. */
  msgid?: string;
  params?: Record<string, unknown>;
}

export interface TableEvent extends LogEntry {
  type: "event";
  state: View;
  status?: string;
}

/** Simultaneous seats: who chooses in this phase and who has not finished (never what anyone chose). */
export interface Simultaneous {
  seats: number[];
  waiting_for: number[];
}

/** One seat's own simultaneous choice, sent only to the clients holding that seat. */
export interface PrivateChoice {
  type: "private";
  seq: number;
  seat: number;
  moves: string[];
  done: boolean;
  state: View;
}

export interface Handlers {
  joined(seats: number[], spectator: boolean, info: TableInfo | null): void;
  snapshot(seq: number, state: View, log: LogEntry[], status: string | null, extras: Record<string, unknown> | null): void;
  event(ev: TableEvent): void;
  error(err: ServerError): void;
  /** Table metadata changed (a seat was claimed, a name set). */
  table(info: TableInfo): void;
  /** A seat's own simultaneous position (its choices so far); only for seats this client holds. */
  private?(choice: PrivateChoice): void;
  /** A simultaneous phase began, or a seat finished its choices. */
  progress?(sim: Simultaneous): void;
  status(status: ConnStatus): void;
  /** A rematch of this (finished) table was offered or accepted. */
  rematch?(offer: RematchOffer): void;
}

const PING_MS = 20000;
const MAX_BACKOFF_MS = 5000;

export class TableConnection {
  private ws: WebSocket | null = null;
  private closed = false;
  private backoff = 300;
  private pingTimer: number | undefined;
  private retryTimer: number | undefined;
  /** Sequence number of the last event applied (0 = none yet, null = never synced). */
  seq: number | null = null;

  constructor(
    readonly table: string,
    private tokens: string[],
    private readonly on: Handlers,
    /** `mine`: also hold the seats linked to this browser's player; `link`: seats of an invite link's token to
     * link to it. */
    private readonly claim: { mine?: boolean; link?: number[] } = {},
  ) {}

  start(): void {
    this.closed = false;
    this.open();
  }

  stop(): void {
    this.closed = true;
    window.clearInterval(this.pingTimer);
    window.clearTimeout(this.retryTimer);
    this.ws?.close();
    this.ws = null;
  }

  /** Re-join with another set of tokens (a seat claimed after the page opened). */
  setTokens(tokens: string[]): void {
    this.tokens = tokens;
    this.sendJoin();
  }

  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  act(seat: number, move: string): boolean {
    if (!this.connected || this.seq === null) return false;
    this.send({ type: "act", seat, seq: this.seq, move });
    return true;
  }

  /** Real dice: the outcome that fell, typed in for `seat` (the game's notation). */
  enter(seat: number, outcome: string): boolean {
    if (!this.connected || this.seq === null) return false;
    this.send({ type: "enter", seat, seq: this.seq, outcome });
    return true;
  }

  /** Real dice: take back the last outcome `seat` entered (before anyone decides on it). */
  undo(seat: number): boolean {
    if (!this.connected || this.seq === null) return false;
    this.send({ type: "undo", seat, seq: this.seq });
    return true;
  }

  /** `seat` gives the game up (no seq: a resignation is never stale). */
  resign(seat: number): boolean {
    if (!this.connected) return false;
    this.send({ type: "resign", seat });
    return true;
  }

  private url(): string {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws`;
  }

  private open(): void {
    this.on.status("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 300;
      this.on.status("online");
      this.sendJoin();
      window.clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => this.send({ type: "ping" }), PING_MS);
    };
    ws.onmessage = (msg) => this.receive(msg.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      window.clearInterval(this.pingTimer);
      this.ws = null;
      if (this.closed) return;
      this.on.status("offline");
      this.retryTimer = window.setTimeout(() => this.open(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    };
  }

  private sendJoin(): void {
    this.send({ type: "join", table: this.table, tokens: this.tokens, last_seq: this.seq, ...this.claim });
  }

  private send(obj: unknown): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(obj));
  }

  private receive(data: unknown): void {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(String(data)) as Record<string, unknown>;
    } catch {
      return;
    }
    switch (msg.type) {
      case "joined":
        this.on.joined((msg.seats as number[]) ?? [], Boolean(msg.spectator), (msg.info as TableInfo) ?? null);
        break;
      case "snapshot":
        this.seq = Number(msg.seq);
        this.on.snapshot(this.seq, msg.state as View, (msg.log as LogEntry[]) ?? [], (msg.status as string) ?? null, (msg.extras as Record<string, unknown>) ?? null);
        break;
      case "event": {
        const ev = msg as unknown as TableEvent;
        if (this.seq !== null && ev.seq <= this.seq) break; // already have it (replayed after a reconnect)
        if (this.seq !== null && ev.seq > this.seq + 1) {
          // A gap: ask again from what we have; the server fills it in.
          this.sendJoin();
          break;
        }
        this.seq = ev.seq;
        this.on.event(ev);
        break;
      }
      case "table":
        this.on.table(msg as unknown as TableInfo);
        break;
      case "private":
        this.on.private?.(msg as unknown as PrivateChoice);
        break;
      case "rematch":
        this.on.rematch?.(msg as unknown as RematchOffer);
        break;
      case "progress":
        this.on.progress?.(msg.simultaneous as Simultaneous);
        break;
      case "error": {
        const err = msg as unknown as ServerError;
        // A stale move means we missed something: resynchronise from our last seq.
        if (err.code === "stale_seq") this.sendJoin();
        this.on.error(err);
        break;
      }
      default:
        break;
    }
  }
}
