// The account dialog, opened from the top bar's name chip (me.ts): the name, and passkeys (docs/web.md "Accounts"):
// save this player with a passkey, sign in with one on another device, list and remove them, sign out, download
// every game, delete the account. @simplewebauthn/browser is imported here, on demand, so no other page loads it.
import type { Player } from "./api";
import { h } from "./dom";
import { currentLanguage, formatAgo, t, type MessageId } from "./i18n";

interface Passkey {
  id: string;
  created: number;
  last_used: number | null;
  backed_up: boolean;
}

/** A refused account request: the server's code (worded below) and, for 429, the seconds to wait. */
class AccountError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly retryAfter: number,
  ) {
    super(`${code} (HTTP ${status})`);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await res.json().catch(() => null)) as { code?: string; retry_after?: number } | null;
  if (!res.ok) throw new AccountError(res.status, data?.code ?? `http_${res.status}`, data?.retry_after ?? 0);
  return data as T;
}

const ERRORS: Record<string, MessageId> = {
  passkeys_off: "account.error.passkeys_off",
  passkey_refused: "account.error.passkey_refused",
  passkey_unknown: "account.error.passkey_unknown",
  passkey_known: "account.error.passkey_known",
  challenge_expired: "account.error.challenge_expired",
  too_many_sign_ins: "account.error.too_many",
  too_many_failures: "account.error.too_many",
  too_many_challenges: "account.error.too_many",
  last_passkey: "account.error.last_passkey",
  no_session: "account.error.no_session",
  bad_origin: "account.error.bad_origin",
  no_such_passkey: "account.error.no_such_passkey",
};

function errorText(err: unknown): string {
  if (err instanceof AccountError) {
    const id = ERRORS[err.code];
    if (id) return t(id, { seconds: Math.max(1, Math.ceil(err.retryAfter)) });
    return err.status >= 500 ? t("error.server_error") : t("error.unknown", { detail: err.code });
  }
  const name = (err as { name?: string; code?: string } | null)?.name;
  if (name === "NotAllowedError" || name === "AbortError") return t("account.error.cancelled");
  if (name === "InvalidStateError") return t("account.error.passkey_known");
  if (err instanceof TypeError) return t("error.network");
  return t("error.unknown", { detail: String((err as Error | null)?.message ?? err) });
}

const webauthn = () => import("@simplewebauthn/browser");

/** Save this player with a new passkey (a guest becomes an account); its player as the server now has it. */
async function registerPasskey(): Promise<Player> {
  const { startRegistration } = await webauthn();
  const optionsJSON = await call<Parameters<typeof startRegistration>[0]["optionsJSON"]>("POST", "/api/auth/register/options");
  const answer = await startRegistration({ optionsJSON });
  return (await call<{ player: Player }>("POST", "/api/auth/register/verify", answer)).player;
}

async function signInWithPasskey(): Promise<Player> {
  const { startAuthentication } = await webauthn();
  const optionsJSON = await call<Parameters<typeof startAuthentication>[0]["optionsJSON"]>("POST", "/api/auth/login/options");
  const answer = await startAuthentication({ optionsJSON });
  return (await call<{ player: Player }>("POST", "/api/auth/login/verify", answer)).player;
}

function when(unix: number): string {
  return formatAgo(unix) ?? new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium" }).format(unix * 1000);
}

export interface AccountHooks {
  player: () => Player | null;
  /** The player changed (signed in, saved, signed out, deleted): the page's name and lists follow. */
  changed: (player: Player | null) => void;
  /** The name form of me.ts, drawn inside the dialog. */
  nameForm: () => HTMLElement;
}

/** The dialog over the page; Escape or Close shuts it and gives the focus back to `opener`. */
/** "Your profile" (hidden until this browser has a player). */
function profileLink(hooks: AccountHooks, close: () => void): HTMLElement | null {
  const me = hooks.player();
  if (!me) return null;
  return h("p", { class: "small" }, h("a", { href: `/player/${me.id}`, "data-link": true, "data-testid": "your-profile", onclick: close }, t("account.profile")));
}

export function openAccountDialog(opener: HTMLElement, hooks: AccountHooks): void {
  document.querySelector("[data-testid=account-dialog]")?.closest(".name-overlay")?.remove();
  const status = h("p", { class: "account-status", role: "status", "aria-live": "polite", "data-testid": "account-status" });
  const body = h("div", { class: "account-body" });
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === "Escape") close();
  };
  const close = (): void => {
    document.removeEventListener("keydown", onKey);
    overlay.remove();
    if (opener.isConnected) opener.focus();
  };
  const box = h(
    "div",
    { class: "card name-prompt account-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "account-title", "data-testid": "account-dialog" },
    h(
      "div",
      { class: "account-head" },
      h("h2", { id: "account-title" }, t("account.title")),
      h("button", { type: "button", class: "btn ghost", "data-testid": "account-close", onclick: close }, t("account.close")),
    ),
    hooks.nameForm(),
    profileLink(hooks, () => close()),
    body,
    status,
  );
  const overlay = h("div", { class: "name-overlay" }, box);
  document.addEventListener("keydown", onKey); // wherever the focus is (a disabled button lets it go)
  overlay.addEventListener("click", (e) => {
    if (e.target === overlay) close();
  });

  const say = (text: string, kind: "info" | "error" = "info"): void => {
    status.textContent = text;
    status.classList.toggle("error", kind === "error");
  };
  const busy = (button: HTMLButtonElement, work: () => Promise<void>): void => {
    button.disabled = true;
    say(t("account.working"));
    work()
      .catch((err: unknown) => say(errorText(err), "error"))
      .finally(() => {
        button.disabled = false;
      });
  };

  const draw = async (): Promise<void> => {
    const me = hooks.player();
    const nameInput = box.querySelector<HTMLInputElement>("#me-name");
    if (nameInput && document.activeElement !== nameInput) nameInput.value = me?.name ?? ""; // signed in or out
    const account = me?.kind === "account";
    const supported = typeof window.PublicKeyCredential === "function";
    const rows: HTMLElement[] = [];
    rows.push(h("p", { class: "muted", "data-testid": "account-kind" }, t(account ? "account.is_account" : me ? "account.is_guest" : "account.is_nobody")));
    if (!supported) rows.push(h("p", { class: "error" }, t("account.unsupported")));
    const save = h("button", { type: "button", class: "btn primary", "data-testid": "passkey-register", disabled: !supported }, t(account ? "account.add_passkey" : "account.register"));
    save.addEventListener("click", () =>
      busy(save, async () => {
        const player = await registerPasskey();
        hooks.changed(player);
        say(t("account.done.registered"));
        await draw();
      }),
    );
    rows.push(save);
    if (!account) {
      const signIn = h("button", { type: "button", class: "btn", "data-testid": "passkey-sign-in", disabled: !supported }, t("account.sign_in"));
      signIn.addEventListener("click", () =>
        busy(signIn, async () => {
          const player = await signInWithPasskey();
          hooks.changed(player);
          say(player.name ? t("account.done.signed_in", { name: player.name }) : t("account.done.signed_in_unnamed"));
          await draw();
        }),
      );
      rows.push(signIn, h("p", { class: "muted small" }, t("account.sign_in_hint")));
    } else {
      rows.push(await passkeyList(say, draw));
      const signOut = h("button", { type: "button", class: "btn", "data-testid": "sign-out" }, t("account.sign_out"));
      signOut.addEventListener("click", () =>
        busy(signOut, async () => {
          await call("POST", "/api/auth/logout");
          hooks.changed(null);
          say(t("account.done.signed_out"));
          await draw();
        }),
      );
      rows.push(signOut);
    }
    if (me) {
      rows.push(
        h("a", { class: "btn", href: "/api/me/export", download: "", "data-testid": "export-games" }, t("account.export")),
        deleteAccount(say, async () => {
          hooks.changed(null);
          await draw();
        }),
      );
    }
    body.replaceChildren(h("div", { class: "account-actions" }, ...rows));
  };

  document.body.append(overlay);
  void draw();
}

async function passkeyList(say: (text: string, kind?: "info" | "error") => void, redraw: () => Promise<void>): Promise<HTMLElement> {
  let keys: Passkey[] = [];
  try {
    keys = (await call<{ passkeys: Passkey[] }>("GET", "/api/me/passkeys")).passkeys;
  } catch (err) {
    say(errorText(err), "error");
  }
  const list = h("ul", { class: "passkey-list", "aria-labelledby": "passkeys-title", "data-testid": "passkey-list" });
  for (const key of keys) {
    const saved = when(key.created);
    const remove = h(
      "button",
      { type: "button", class: "btn ghost", "aria-label": t("account.remove_label", { date: saved }), disabled: keys.length < 2, title: keys.length < 2 ? t("account.error.last_passkey") : null },
      t("account.remove"),
    );
    remove.addEventListener("click", () => {
      remove.disabled = true;
      call("DELETE", `/api/me/passkeys/${encodeURIComponent(key.id)}`)
        .then(async () => {
          say(t("account.done.removed"));
          await redraw();
        })
        .catch((err: unknown) => {
          say(errorText(err), "error");
          remove.disabled = false;
        });
    });
    const used = key.last_used ? t("account.passkey_used", { date: when(key.last_used) }) : t("account.passkey_unused");
    list.append(
      h("li", { "data-testid": "passkey" }, h("span", null, t("account.passkey_item", { date: saved }), h("br"), h("small", { class: "muted" }, used, key.backed_up ? ` · ${t("account.passkey_synced")}` : "")), remove),
    );
  }
  return h("section", { class: "passkeys" }, h("h3", { id: "passkeys-title" }, t("account.passkeys")), list);
}

function deleteAccount(say: (text: string, kind?: "info" | "error") => void, done: () => Promise<void>): HTMLElement {
  const box = h("div", { class: "account-delete" });
  const ask = h("button", { type: "button", class: "btn danger", "data-testid": "delete-account" }, t("account.delete"));
  ask.addEventListener("click", () => {
    const yes = h("button", { type: "button", class: "btn danger", "data-testid": "delete-account-confirm" }, t("account.delete_yes"));
    const no = h("button", { type: "button", class: "btn", "data-testid": "delete-account-cancel" }, t("account.delete_no"));
    const question = h("div", { role: "alertdialog", "aria-labelledby": "delete-q", class: "account-confirm" }, h("p", { id: "delete-q" }, t("account.delete_confirm")), h("div", { class: "account-row" }, yes, no));
    no.addEventListener("click", () => {
      box.replaceChildren(ask);
      ask.focus();
    });
    yes.addEventListener("click", () => {
      yes.disabled = true;
      call("DELETE", "/api/me")
        .then(async () => {
          say(t("account.done.deleted"));
          await done();
        })
        .catch((err: unknown) => {
          say(errorText(err), "error");
          yes.disabled = false;
        });
    });
    box.replaceChildren(question);
    no.focus();
  });
  box.append(ask);
  return box;
}
