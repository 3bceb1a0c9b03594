// The installable app (docs/web.md, "Installable app"): the service worker (built from web/pwa/sw.js) keeps the
// app's files for a fast start and an offline page, and shows pushed notifications. Registered once the page has
// loaded, so that it never competes with the first visit's own requests.
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
  const register = (): void => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      /* an old or locked-down browser: the site works the same without it */
    });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
