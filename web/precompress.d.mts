import type { Plugin } from "vite";

/** The build's scripts and stylesheets also written gzip- and brotli-compressed beside them (.gz, .br). */
export function precompress(): Plugin;
