import { homeDir } from "@tauri-apps/api/path";

let home: Promise<string | null> | null = null;

/**
 * The user's home folder, asked once. Only ever used to shorten paths for reading, so a
 * failure (outside the desktop app) is null, never an error to show.
 */
export function homeFolder(): Promise<string | null> {
  home ??= homeDir().then(
    (path) => (path === "" ? null : path),
    () => null,
  );
  return home;
}

/** Forgets the asked home folder (for tests). */
export function forgetHomeFolder(): void {
  home = null;
}

/**
 * `path` with the home folder written `~`, as people read paths in messages:
 * "/home/me/Documents/a.md" is "~/Documents/a.md". Anything outside home stays as it is.
 */
export function withTilde(path: string, homePath: string | null): string {
  if (homePath === null || homePath === "") return path;
  const trimmed = homePath.replace(/[\\/]+$/, "");
  if (trimmed === "") return path;
  if (path === trimmed) return "~";
  const next = path.charAt(trimmed.length);
  // A sibling that merely starts the same ("/home/me2") is not inside home.
  if (path.startsWith(trimmed) && (next === "/" || next === "\\")) return `~${path.slice(trimmed.length)}`;
  return path;
}
