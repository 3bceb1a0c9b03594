// Per-game views, chosen by the table's game. Adding a game to the web = adding one entry here.
import type { HintsResult, LogEntry, View } from "../api";
import type { PrivateChoice, Simultaneous } from "../connection";
import { CleverView } from "./clever";
import { ThousandView } from "./thousand";
import { WurfView } from "./wurf";

export interface ViewContext {
  /** Seats this browser may act for (hot seat: several). */
  mySeats(): number[];
  /** Send a move for a seat; false if not connected. */
  act(seat: number, move: string): boolean;
  /** Real dice: send the outcome that fell for a seat (the game's notation); false if not connected. */
  enter(seat: number, outcome: string): boolean;
  /** Real dice: take back the last outcome this seat entered. */
  undo(seat: number): boolean;
  seatName(seat: number): string;
  /** The table's rules (preset values with the overrides applied); empty until loaded. */
  rules(): Record<string, unknown>;
}

export interface GameView {
  /** Render the state; `fresh` is the event that produced it (null for a snapshot). */
  update(state: View, fresh: LogEntry | null): void;
  /** Log lines in words for an event (state = the view after it, null for old entries of a snapshot). */
  describe?(entry: LogEntry, state: View | null): string[];
  /** Log lines in words for an event from the positions before and after it, without drawing anything (the
   *  analysis page words a whole game at once; `after` null for a move that was not played). */
  narrate?(entry: LogEntry, before: View, after: View | null): string[];
  /** The game-over card's headline and body (the page's own standings when absent). */
  summary?(state: View): { headline: string; body: HTMLElement };
  /** A snapshot's extras (e.g. the last Wurf throw's motion) with the snapshot's log, before its update(). */
  extras?(extras: Record<string, unknown>, log: LogEntry[]): void;
  /** The server answered a move with an error: unlock the controls. */
  refused(): void;
  /** Simultaneous seats: a held seat's own position while the others choose (see docs/web-protocol.md). */
  private?(choice: PrivateChoice): void;
  /** Simultaneous seats: the phase began or a seat finished. */
  progress?(sim: Simultaneous): void;
  /** A legal move of the seat to move at `state`, in words as an instruction (the Hint list); null: not known. */
  moveText?(move: string, state: View): string | null;
  /** The hint of the seat to move as the page received it, to draw on the board (Wurf's map over the arena);
   *  null when the hints are closed or being asked again for a new position. */
  showHints?(res: HintsResult | null): void;
  /** False for a game the server gives no hints for (the Hint button is hidden). */
  readonly hints?: boolean;
  /** Where the Hint panel goes on a narrow screen: under the controls, above what the decision does not need
   *  (absent: the panel goes under the board). */
  readonly hintSlot?: HTMLElement;
  /** Resolves when the events received so far have been shown (animations played). */
  settled?(): Promise<void>;
  destroy(): void;
}

export type ViewFactory = (root: HTMLElement, ctx: ViewContext) => GameView;

export const VIEWS: Record<string, ViewFactory> = {
  thousand: (root, ctx) => new ThousandView(root, ctx),
  clever: (root, ctx) => new CleverView(root, ctx),
  wurf: (root, ctx) => new WurfView(root, ctx),
};
