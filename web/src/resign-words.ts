// What resigning does, by game and by how many seats stay in (docs/thousand.md, clever.md, wurf.md "Resigning"):
// said before the player commits to it, at the table and in Your games alike.
import { t, type MessageId } from "./i18n";

const ALONE: Record<string, MessageId> = { thousand: "resign.what.thousand.solo", clever: "resign.what.clever.solo" };
const AMONG_MANY: Record<string, MessageId> = {
  thousand: "resign.what.thousand.many",
  clever: "resign.what.clever.many",
  wurf: "resign.what.wurf.many",
};

/** What follows a resign at a `game` table where `others` (their names) stay in. */
export function resignConsequence(game: string, others: string[]): string {
  if (others.length === 1) return t("resign.what.other", { name: others[0] });
  const said = (others.length === 0 ? ALONE : AMONG_MANY)[game];
  return said ? t(said) : "";
}
