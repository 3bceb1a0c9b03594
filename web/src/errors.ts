// Errors shown to players, in their language: the server's error codes and HTTP statuses map to catalogue
// messages; an engine's reason (a refused move, a refused house rule) comes as a message id with parameters and
// is worded here. The server's English is shown only for a reason that has no id (or an id this page lacks).
import { ApiError, type EngineMessage, type RuleProblem } from "./api";
import type { ServerError } from "./connection";
import { hasKey, t, tKey } from "./i18n";

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

/** A rule-set problem names options by key (`option`, `subject`, `*_option`) and a choice as `*_choice` (of the
 * `*_option` beside it): the page says them as its form does, by their names in its language. */
function ruleParams(game: string, params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (isEngineMessage(v)) out[k] = { id: v.id, params: ruleParams(game, v.params ?? {}) };
    else if (typeof v === "string" && (k === "option" || k === "subject" || k.endsWith("_option"))) out[k] = tKey(`rule.${game}.${v}.name`, v);
    else if (typeof v === "string" && k === "options") out[k] = v.split(", ").map((o) => tKey(`rule.${game}.${o}.name`, o)).join(", ");
    else if (typeof v === "string" && k === "suggestion") out[k] = suggestionText(game, v);
    else if (typeof v === "string" && k.endsWith("_choice")) {
      const key = params[`${k.slice(0, -"_choice".length)}_option`];
      out[k] = typeof key === "string" ? tKey(`rule.${game}.${key}.choice.${v}`, v) : v;
    } else out[k] = v;
  }
  return out;
}

/** A working rule set the server suggests (`pits=[[180,210]] dump_truck=false`), the options by their names. */
function suggestionText(game: string, said: string): string {
  const value = (v: string): string => (v === "none" ? t("rules.none") : v === "true" ? t("rules.on") : v === "false" ? t("rules.off") : v);
  return said
    .split(" ")
    .map((pair) => {
      const at = pair.indexOf("=");
      return at < 0 ? pair : `${tKey(`rule.${game}.${pair.slice(0, at)}.name`, pair.slice(0, at))}: ${value(pair.slice(at + 1))}`;
    })
    .join("; ");
}

/** A problem the server found with a rule set of `game` (`POST /api/rules/check`, a refused `POST /api/tables`),
 * in the page's language; the server's English only for an id this page lacks. */
export function ruleProblemText(p: RuleProblem, game: string): string {
  return p.msgid ? engineText({ id: p.msgid, params: ruleParams(game, p.params ?? {}) }, p.message) : p.message;
}

/** A failed REST call or a network failure; `game`: the game of a rule set the request sent. */
export function apiErrorText(err: unknown, game = ""): string {
  if (err instanceof ApiError) {
    if (err.problem) return t("error.bad_request", { detail: ruleProblemText(err.problem, game) });
    if (err.code && hasKey(`error.${err.code}`)) return tKey(`error.${err.code}`, err.detail);
    if (err.status === 404) return t("error.no_such_table");
    if (err.status === 409) return t("error.seat_taken");
    if (err.status === 429) return quotaText(err) ?? t("error.rate_limited");
    if (err.status >= 500) return t("error.server_error");
    return t("error.bad_request", { detail: err.detail });
  }
  return t("error.network");
}

/** A refusal by a table quota, worded by its message id in the page's language ("…finish, resign or delete one of
 * them…"), or null for another 429 (a burst of requests: wait a moment). */
export function quotaText(err: ApiError): string | null {
  const body = err.body as { msgid?: unknown; params?: unknown } | undefined;
  if (typeof body?.msgid !== "string" || !body.msgid.startsWith("limit.")) return null;
  const params = (typeof body.params === "object" && body.params !== null ? body.params : {}) as Record<string, unknown>;
  return engineText({ id: body.msgid, params: { n: (params.count ?? params.limit ?? 0) as number, ...params } }, err.detail);
}
