// A modal "are you sure" dialog: what follows is said before the player commits to it. Keyboard: focus starts on
// the safe choice, Tab stays inside, Escape cancels; focus goes back where it was.
import { h } from "./dom";

export interface ConfirmOptions {
  title: string;
  /** What follows, one paragraph each (a node: e.g. a choice of seat). */
  body: (string | HTMLElement)[];
  yes: string;
  no: string;
  testid: string;
}

export function confirmDialog(o: ConfirmOptions): Promise<boolean> {
  const back = document.activeElement as HTMLElement | null;
  return new Promise((resolve) => {
    const no = h("button", { type: "button", class: "btn", "data-testid": `${o.testid}-no` }, o.no);
    const yes = h("button", { type: "button", class: "btn danger", "data-testid": `${o.testid}-yes` }, o.yes);
    const box = h(
      "div",
      { class: "card confirm", role: "alertdialog", "aria-modal": "true", "aria-labelledby": `${o.testid}-title`, "aria-describedby": `${o.testid}-body`, "data-testid": o.testid },
      h("h2", { id: `${o.testid}-title` }, o.title),
      h("div", { id: `${o.testid}-body` }, o.body.map((p) => (typeof p === "string" ? h("p", null, p) : p))),
      h("p", { class: "actions" }, no, yes),
    );
    const overlay = h("div", { class: "overlay confirm-overlay" }, box);
    const done = (answer: boolean): void => {
      overlay.remove();
      back?.focus();
      resolve(answer);
    };
    no.addEventListener("click", () => done(false));
    yes.addEventListener("click", () => done(true));
    overlay.addEventListener("click", (e) => e.target === overlay && done(false));
    overlay.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        done(false);
      } else if (e.key === "Tab") {
        const stops = Array.from(box.querySelectorAll<HTMLElement>("button, select, input"));
        const i = stops.indexOf(document.activeElement as HTMLElement);
        const next = e.shiftKey ? (i <= 0 ? stops.length - 1 : i - 1) : (i + 1) % stops.length;
        e.preventDefault();
        stops[next]?.focus();
      }
    });
    document.body.append(overlay);
    no.focus();
  });
}
