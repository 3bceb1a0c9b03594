// Per-game views, chosen by the table's game. Adding a game to the web = adding one entry here.
import type { LogEntry, View } from "../api";
import { CleverView } from "./clever";
import { ThousandView } from "./thousand";

export interface ViewContext {
  /** Seats this browser may act for (hot seat: several). */
  mySeats(): number[];
  /** Send a move for a seat; false if not connected. */
  act(seat: number, move: string): boolean;
  seatName(seat: number): string;
  /** The table's rules (preset values with the overrides applied); empty until loaded. */
  rules(): Record<string, unknown>;
}

export interface GameView {
  /** Render the state; `fresh` is the event that produced it (null for a snapshot). */
  update(state: View, fresh: LogEntry | null): void;
  /** Log lines in words for an event (state = the view after it, null for old entries of a snapshot). */
  describe?(entry: LogEntry, state: View | null): string[];
  /** The game-over card's headline and body (the page's own standings when absent). */
  summary?(state: View): { headline: string; body: HTMLElement };
  /** The server answered a move with an error: unlock the controls. */
  refused(): void;
  destroy(): void;
}

export type ViewFactory = (root: HTMLElement, ctx: ViewContext) => GameView;

export const VIEWS: Record<string, ViewFactory> = {
  thousand: (root, ctx) => new ThousandView(root, ctx),
  clever: (root, ctx) => new CleverView(root, ctx),
};
