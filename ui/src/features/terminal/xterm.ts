// An xterm.js instance set up the way both terminal views want it: the app's font and
// theme (following light/dark), fitted to its element, links opening in the system
// browser, clipboard helpers. Created only once its element has a size: xterm measures
// its character cells when it opens, and a hidden element would give it none.

import { FitAddon } from "@xterm/addon-fit";
import { WebLinksAddon } from "@xterm/addon-web-links";
import { Terminal, type ITerminalOptions } from "@xterm/xterm";
import { openUrl } from "@tauri-apps/plugin-opener";

import { currentTheme, monoFont, watchTheme } from "./theme";

import "@xterm/xterm/css/xterm.css";

/** Lines kept above the screen: enough to scroll back through a build, bounded in memory. */
export const SCROLLBACK_LINES = 5000;

export interface XtermHandle {
  term: Terminal;
  /** Fits the terminal to its element (no-op while the element has no size). */
  fit(): void;
  dispose(): void;
}

export function hasSize(element: HTMLElement): boolean {
  return element.clientWidth > 0 && element.clientHeight > 0;
}

export function createXterm(host: HTMLElement, options: ITerminalOptions = {}): XtermHandle {
  const term = new Terminal({
    fontFamily: monoFont(),
    fontSize: 13,
    lineHeight: 1.2,
    scrollback: SCROLLBACK_LINES,
    cursorBlink: true,
    cursorInactiveStyle: "outline",
    macOptionIsMeta: true,
    // Keep the palette's colours as given; the palettes are already chosen for contrast.
    minimumContrastRatio: 1,
    theme: currentTheme(),
    ...options,
  });
  const fitAddon = new FitAddon();
  term.loadAddon(fitAddon);
  term.loadAddon(
    new WebLinksAddon((event, uri) => {
      // Never navigate the app's own webview.
      event.preventDefault();
      openUrl(uri).catch((error: unknown) => console.error(`Could not open ${uri}:`, error));
    }),
  );
  term.open(host);

  let frame = 0;
  const fit = () => {
    if (!hasSize(host)) return;
    try {
      fitAddon.fit();
    } catch {
      // A terminal disposed between the resize and the frame: nothing to fit.
    }
  };
  fit();
  // One fit per frame however many resize events a drag produces.
  const observer = new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(fit);
  });
  observer.observe(host);
  const unwatch = watchTheme(() => {
    term.options.theme = currentTheme();
  });

  return {
    term,
    fit,
    dispose: () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      unwatch();
      term.dispose();
    },
  };
}

export function copySelection(term: Terminal): boolean {
  if (!term.hasSelection()) return false;
  const text = term.getSelection();
  navigator.clipboard?.writeText(text).catch((error: unknown) => console.error("Could not copy:", error));
  return true;
}

export function pasteClipboard(term: Terminal): void {
  navigator.clipboard
    ?.readText()
    // xterm's paste handles bracketed-paste mode and line endings, then sends it as input.
    .then((text) => text && term.paste(text))
    .catch((error: unknown) => console.error("Could not paste:", error));
}
