// The "table ready" card: who sits where, invite links with Copy, and the way to the table.
import { type CreatedTable } from "./api";
import { clear, h, toast } from "./dom";
import { t } from "./i18n";
import { botName } from "./names";

/** A read-only link with a Copy button (invites, a table's watch link). */
export function copyBox(url: string, label: string): HTMLElement {
  const input = h("input", { type: "text", readonly: true, value: url, "aria-label": label, class: "invite" });
  const copy = h(
    "button",
    {
      type: "button",
      class: "btn",
      onclick: async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(url);
          toast(t("created.copied"), "info");
        } catch {
          document.execCommand?.("copy");
        }
      },
    },
    t("created.copy"),
  );
  return h("span", { class: "invite-box" }, input, copy);
}

export function showCreated(box: HTMLElement, created: CreatedTable, here: Set<number>): void {
  clear(box);
  box.hidden = false;
  const link = (seatNo: number, invite: string): HTMLElement =>
    copyBox(new URL(invite, location.origin).toString(), t("created.invite_for", { n: seatNo + 1 }));
  box.append(
    h("h2", null, t("created.title")),
    h(
      "ul",
      { class: "created-seats" },
      created.seats.map((s) =>
        h(
          "li",
          { "data-seat": s.seat },
          h("b", null, `${s.seat + 1}. ${s.kind === "bot" ? t("seat.bot", { level: botName(s.name.replace(/^bot:/, "")) }) : s.named === false ? t("seat.player", { n: s.seat + 1 }) : s.name}`),
          " ",
          s.kind === "bot"
            ? h("span", { class: "badge" }, t("created.badge_bot"))
            : here.has(s.seat)
              ? h("span", { class: "badge seat" }, t("created.badge_here"))
              : s.token
                ? h("span", { class: "badge" }, t("created.badge_invite"))
                : h("span", { class: "badge" }, t("created.badge_open")),
          s.invite ? link(s.seat, s.invite) : null,
        ),
      ),
    ),
    h("p", { class: "muted" }, t("created.hint")),
    h("p", null, h("a", { class: "btn primary big", href: `/table/${created.table_id}`, "data-link": true, id: "go-table" }, t("created.go"))),
  );
  box.scrollIntoView({ behavior: "smooth", block: "start" });
}
