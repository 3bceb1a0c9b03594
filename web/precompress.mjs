// Every built script and stylesheet also as .gz and .br beside it (Node's own zlib: no dependency), so the server
// sends them compressed without compressing on each request (dicehall/web/assets.py picks the variant).
// Plain JavaScript: the TypeScript project has no Node types (precompress.d.mts declares it).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const COMPRESSIBLE = /\.(js|css|svg|json|html)$/;
const gz = promisify(gzip);
const br = promisify(brotliCompress);

/** @returns {import("vite").Plugin} */
export function precompress() {
  let outDir = "";
  return {
    name: "dicehall-precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((name) => name.startsWith("assets/") && COMPRESSIBLE.test(name));
      await Promise.all(
        files.map(async (name) => {
          const path = join(outDir, name);
          const plain = await readFile(path);
          const brotli = {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
          };
          const [g, b] = await Promise.all([gz(plain, { level: 9 }), br(plain, { params: brotli })]);
          await Promise.all([writeFile(path + ".gz", g), writeFile(path + ".br", b)]);
        }),
      );
    },
  };
}
