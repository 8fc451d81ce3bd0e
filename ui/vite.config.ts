import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// The Tauri dev server expects this exact port (tauri.conf.json `devUrl`); failing fast on a
// taken port beats silently moving to another one the app never loads.
const DEV_PORT = 1420;

export default defineConfig({
  plugins: [react()],
  clearScreen: false,
  server: {
    port: DEV_PORT,
    strictPort: true,
    // Rust sources live next to the UI; watching them only burns CPU.
    watch: { ignored: ["**/src-tauri/**", "**/target/**"] },
  },
  // Escape non-ASCII characters in the bundle: WebKit keeps a script's source in memory for
  // as long as the page runs, one byte a character when it is all Latin-1 but two for the
  // whole file when a single character is not (a `…` or an arrow in a string).
  esbuild: { charset: "ascii" },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // WebKitGTK (Linux) and WKWebView (macOS) lag behind evergreen browsers.
    target: ["es2021", "safari15"],
    rollupOptions: {
      output: {
        // A language's catalogs, loaded when it is chosen (src/i18n), in one chunk a
        // language rather than one a file. English is imported by the page itself, so
        // has an importer and stays in the main chunk.
        manualChunks(id, { getModuleInfo }) {
          const catalog = /\/src\/i18n\/locales\/([^/]+)\/[^/]+\.json$/.exec(id);
          if (catalog && getModuleInfo(id)?.importers.length === 0) return `locale-${catalog[1]}`;
          return undefined;
        },
      },
    },
  },
  test: {
    include: ["src/**/*.test.{ts,tsx}"],
    environment: "node",
    // Components read their words from the catalogs: English unless a test switches.
    setupFiles: ["src/test/i18n.ts"],
  },
});
