// Errors shown to players, in their language: the server's error codes and HTTP statuses map to catalogue
// messages; the server's own words (English today) are only shown where no message fits (a refused house rule).
import { ApiError } from "./api";
import type { ServerError } from "./connection";
import { t, tKey } from "./i18n";

/** A websocket error from the server (`{"type": "error", "code", "message"}`). */
export function serverErrorText(err: ServerError): string {
  return tKey(`error.${err.code}`, t("error.unknown", { detail: err.message || err.code }));
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
