// Errors shown to players, in their language: the server's error codes and HTTP statuses map to catalogue
// messages; an engine's reason (a refused move, a refused house rule) comes as a message id with parameters and
// is worded here. The server's English is shown only for a reason that has no id (or an id this page lacks).
import { ApiError, type EngineMessage, type RuleProblem } from "./api";
import type { ServerError } from "./connection";
import { t, tKey } from "./i18n";

const isEngineMessage = (v: unknown): v is EngineMessage =>
  typeof v === "object" && v !== null && typeof (v as EngineMessage).id === "string" && typeof (v as EngineMessage).params === "object";

/** An engine message in the page's language (nested messages in its parameters too); `fallback` if unknown. */
export function engineText(msg: EngineMessage, fallback: string): string {
  const params: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(msg.params ?? {})) {
    if (isEngineMessage(v)) params[k] = engineText(v, "");
    else if (typeof v === "number" || typeof v === "string") params[k] = v;
    else params[k] = JSON.stringify(v);
  }
  return tKey(msg.id, fallback, params);
}

/** A websocket error from the server (`{"type": "error", "code", "message", "msgid"?, "params"?}`). */
export function serverErrorText(err: ServerError): string {
  const general = tKey(`error.${err.code}`, t("error.unknown", { detail: err.message || err.code }));
  if (!err.msgid) return general;
  const reason = engineText({ id: err.msgid, params: err.params ?? {} }, "");
  return reason ? t("error.refused_reason", { reason }) : general;
}

/** A problem the server found with a rule set (`POST /api/rules/check`). */
export function ruleProblemText(p: RuleProblem): string {
  return p.msgid ? engineText({ id: p.msgid, params: p.params ?? {} }, p.message) : p.message;
}

/** A failed REST call or a network failure. */
export function apiErrorText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 404) return t("error.no_such_table");
    if (err.status === 409) return t("error.seat_taken");
    if (err.status === 429) return t("error.rate_limited");
    if (err.status >= 500) return t("error.server_error");
    return t("error.bad_request", { detail: err.detail });
  }
  return t("error.network");
}
