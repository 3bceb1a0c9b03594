// Correspondence tables (docs/web.md, "Correspondence tables"): the time left to move in words, and the line a
// table page or "Your games" shows beside a game on a clock. Deadlines are wall seconds from the server.
import { t } from "./i18n";

/** A table's clock as its view carries it (`state.clock`). */
export interface TableClock {
  move_seconds: number;
  deadline: number | null;
  seats: number[];
}

/** The two largest units of a duration: "2 days 4 hours", "5 hours 10 minutes", "12 minutes". */
export function timeLeftWords(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const part = (id: "clock.days" | "clock.hours" | "clock.minutes", n: number): string => t(id, { n });
  if (days) return hours ? `${part("clock.days", days)} ${part("clock.hours", hours)}` : part("clock.days", days);
  if (hours) return minutes ? `${part("clock.hours", hours)} ${part("clock.minutes", minutes)}` : part("clock.hours", hours);
  return part("clock.minutes", Math.max(1, minutes));
}

/** "3 days a move". */
export function perMoveWords(moveSeconds: number): string {
  return t("clock.per_move", { n: Math.round(moveSeconds / 86_400) });
}

/** "Your move — 2 days 4 hours left" / "Bob to move — …" / "Time is up for this move"; "" when nobody is on the
 * clock. `now`: wall seconds (the server's where known). */
export function clockWords(deadline: number | null | undefined, mine: boolean, who: string, now: number): string {
  if (deadline === null || deadline === undefined) return "";
  const left = deadline - now;
  if (left <= 0) return t("clock.time_up");
  const words = timeLeftWords(left);
  return mine ? t("clock.your_move", { left: words }) : who ? t("clock.their_move", { name: who, left: words }) : t("clock.left", { left: words });
}
