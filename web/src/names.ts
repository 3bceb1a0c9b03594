// Names the player reads: games, presets, bots and seats, from the catalogue (the server's own names are English).
import type { TableSeat } from "./api";
import { t, tKey } from "./i18n";
import { myDisplayName } from "./me";

export const gameTitle = (game: string): string => tKey(`game.${game}.title`, game);
export const presetName = (game: string, preset: string): string => tKey(`preset.${game}.${preset}`, preset);
export const botName = (bot: string): string => tKey(`bot.${bot}`, bot);

/** A seat as shown: bots by their level, free seats as free, people by the name they chose. */
export function seatLabel(seat: TableSeat): string {
  if (seat.kind === "bot") return t("seat.bot", { level: botName(seat.bot ?? seat.name.replace(/^bot:/, "")) });
  if (seat.claimed === false) return t("seat.free", { n: seat.seat + 1 });
  if (seat.deleted) return t("seat.deleted"); // an account deleted since: its games stay
  if (seat.named === false) return t("seat.player", { n: seat.seat + 1 }); // stored language-neutral
  return seat.name;
}

/** This player's display name, or "" (an unnamed seat, worded by each reader's page in its own language). */
export function myName(): string {
  return myDisplayName();
}
