import type { Plugin } from "vite";

/** The service worker (pwa/sw.js) written into the build with the list of files it keeps for offline use. */
export function serviceWorker(): Plugin;
