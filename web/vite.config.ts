import { defineConfig } from "vite";
import { precompress } from "./precompress.mjs";
import { serviceWorker } from "./pwa/plugin.mjs";

// The build lands in the Python package so `dicehall serve` can serve it; `npm run dev` proxies the API.
export default defineConfig({
  base: "/",
  plugins: [precompress(), serviceWorker()],
  build: {
    outDir: "../dicehall/web/static",
    emptyOutDir: true,
    target: "es2020",
    assetsInlineLimit: 0,
    sourcemap: false,
    // three.js (about 145 kB gzipped) is its own chunk, loaded only on a Der große Wurf table.
    chunkSizeWarningLimit: 650,
  },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
    },
  },
});
