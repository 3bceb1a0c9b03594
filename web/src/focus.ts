// Keyboard play keeps its place: a control pressed with the keyboard is disabled or redrawn while the server
// answers, and the browser drops the focus to the page; the next Tab would start again from the top bar.

/** What names a control across redraws: its `data-testid`, `data-move`, `data-die` or `data-target`. */
const KEYS = ["testid", "move", "die", "target"] as const;

function keyOf(el: Element | null): string | null {
  if (!(el instanceof HTMLElement || el instanceof SVGElement)) return null;
  for (const k of KEYS) {
    const v = el.dataset[k];
    if (v) return `[data-${k}="${CSS.escape(v)}"]`;
  }
  return null;
}

function usable(el: Element | null): el is HTMLElement | SVGElement {
  if (!(el instanceof HTMLElement || el instanceof SVGElement) || !el.isConnected) return false;
  if ((el as HTMLButtonElement).disabled || el.closest("[hidden]") || !el.getClientRects().length) return false;
  return el.matches("button, input, select, a[href], [tabindex]");
}

/** Remembers the control of `root` that held the focus; `restore()` after a redraw gives the focus back when it
 * fell to the page — to that control, else to the first usable of the fallbacks. Nothing happens when the player
 * moved the focus elsewhere or never put it in `root` (a mouse player is never scrolled about). */
export class FocusKeeper {
  private key: string | null = null;

  constructor(private readonly root: HTMLElement) {
    root.addEventListener("focusin", (e) => {
      this.key = keyOf(e.target as Element);
    });
    root.addEventListener("focusout", (e) => {
      const to = e.relatedTarget as Node | null;
      if (to && !root.contains(to)) this.key = null; // the player went elsewhere: leave them there
    });
  }

  /** Whether the focus is lost: on the page itself, or on a control that is gone or disabled. */
  private lost(): boolean {
    const a = document.activeElement;
    return !a || a === document.body || !a.isConnected || (a as HTMLButtonElement).disabled === true;
  }

  restore(...fallbacks: (Element | null | undefined)[]): void {
    if (this.key === null || !this.lost()) return;
    const same = this.root.querySelector(this.key);
    const target = usable(same) ? same : fallbacks.find((f): f is HTMLElement | SVGElement => usable(f ?? null));
    target?.focus({ preventScroll: true });
  }

  /** Move the focus to `el` when the player is playing by keyboard here (the focus is in `root` or lost). */
  moveTo(el: Element | null | undefined): void {
    if ((this.key === null && !this.lost()) || !usable(el ?? null)) return;
    (el as HTMLElement).focus({ preventScroll: true });
  }
}
