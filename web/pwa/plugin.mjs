// Writes the service worker (pwa/sw.js) into the build with the files it keeps for offline use: the app's own
// scripts, styles and pictures (the 3D chunk of Der große Wurf excepted: it is kept on first use) and the public
// files (offline page, manifest, icons); its version is a hash of all of them, so every new build is a new worker.
// Plain JavaScript, like precompress.mjs (pwa/plugin.d.mts declares it for the TypeScript config).
import { createHash } from "node:crypto";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";

const KEEP_AT_INSTALL_BELOW = 250_000; // bytes: larger chunks are kept when first used

/** @returns {import("vite").Plugin} */
export function serviceWorker() {
  let publicDir = "";
  return {
    name: "dicehall-service-worker",
    apply: "build",
    configResolved(config) {
      publicDir = config.publicDir;
    },
    async generateBundle(_options, bundle) {
      const hash = createHash("sha256");
      const keep = [];
      for (const [name, item] of Object.entries(bundle).sort(([a], [b]) => a.localeCompare(b))) {
        const size = item.type === "chunk" ? item.code.length : item.source.length;
        if (!name.startsWith("assets/") || size >= KEEP_AT_INSTALL_BELOW) continue;
        keep.push(`/${name}`);
        hash.update(name);
      }
      for (const name of (await readdir(publicDir)).sort()) {
        keep.push(`/${name}`);
        hash.update(name).update(await readFile(join(publicDir, name)));
      }
      const template = await readFile(new URL("./sw.js", import.meta.url), "utf8");
      hash.update(template);
      const source = template
        .replace("self.__DICEHALL_PRECACHE__", JSON.stringify(keep))
        .replace("self.__DICEHALL_VERSION__", JSON.stringify(hash.digest("hex").slice(0, 16)));
      this.emitFile({ type: "asset", fileName: "sw.js", source });
    },
  };
}
