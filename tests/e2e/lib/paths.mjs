// Where the harness finds the repository, the app binary and tauri-driver.
import { accessSync, constants, readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const artifactsDir = path.join(repoRoot, "tests/e2e/artifacts");

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The app binary with the UI embedded; MEMO_APP_BINARY overrides the default location. */
export function appBinary() {
  const targetDir = process.env.CARGO_TARGET_DIR
    ? path.resolve(repoRoot, process.env.CARGO_TARGET_DIR)
    : path.join(repoRoot, "target");
  const binary = path.resolve(process.env.MEMO_APP_BINARY ?? path.join(targetDir, "debug/memo-desktop"));
  if (!isExecutable(binary)) {
    throw new Error(
      `app binary not found at ${binary}; build it with the UI embedded:\n` +
        "  npm --prefix ui run build && cargo build -p memo-desktop --features tauri/custom-protocol",
    );
  }
  return binary;
}

/** The mock LLM server (memo-test-support); MEMO_MOCK_LLM overrides the default location. */
export function mockLlmBinary() {
  const targetDir = process.env.CARGO_TARGET_DIR
    ? path.resolve(repoRoot, process.env.CARGO_TARGET_DIR)
    : path.join(repoRoot, "target");
  const binary = path.resolve(process.env.MEMO_MOCK_LLM ?? path.join(targetDir, "debug/memo-mock-llm"));
  if (!isExecutable(binary)) {
    throw new Error(
      `mock LLM server not found at ${binary}; build it with:\n` +
        "  cargo build -p memo-test-support --bin memo-mock-llm",
    );
  }
  return binary;
}

/** The session seeder (memo-test-support); MEMO_SEED_SESSIONS overrides the default location. */
export function seedSessionsBinary() {
  const targetDir = process.env.CARGO_TARGET_DIR
    ? path.resolve(repoRoot, process.env.CARGO_TARGET_DIR)
    : path.join(repoRoot, "target");
  const binary = path.resolve(process.env.MEMO_SEED_SESSIONS ?? path.join(targetDir, "debug/memo-seed-sessions"));
  if (!isExecutable(binary)) {
    throw new Error(
      `session seeder not found at ${binary}; build it with:\n` +
        "  cargo build -p memo-test-support --bin memo-seed-sessions",
    );
  }
  return binary;
}

/** tauri-driver from TAURI_DRIVER, PATH, or cargo's bin folder (where `cargo install` puts it). */
export function tauriDriverBinary() {
  if (process.env.TAURI_DRIVER) {
    return process.env.TAURI_DRIVER;
  }
  const cargoHome = process.env.CARGO_HOME ?? path.join(homedir(), ".cargo");
  const candidates = [
    ...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean),
    path.join(cargoHome, "bin"),
  ].map((dir) => path.join(dir, "tauri-driver"));
  const found = candidates.find(isExecutable);
  if (!found) {
    throw new Error("tauri-driver not found; install it with: cargo install tauri-driver --version ^2 --locked");
  }
  return found;
}

/** The version every workspace crate (and so the app) takes from `[workspace.package]`. */
export function workspaceVersion() {
  const manifest = readFileSync(path.join(repoRoot, "Cargo.toml"), "utf8");
  const section = manifest.split(/^\[workspace\.package\]\s*$/m)[1]?.split(/^\[/m)[0] ?? "";
  const match = section.match(/^version\s*=\s*"([^"]+)"/m);
  if (!match) {
    throw new Error("no version in [workspace.package] of Cargo.toml");
  }
  return match[1];
}

/** `<os>-<arch>` the way Rust's std::env::consts spell it. */
export function rustPlatform() {
  const os = { darwin: "macos", win32: "windows" }[process.platform] ?? process.platform;
  const arch = { x64: "x86_64", arm64: "aarch64", ia32: "x86" }[process.arch] ?? process.arch;
  return `${os}-${arch}`;
}

/** server-everything, the MCP test server installed in tests/mcp; throws when it is not. */
export function everythingServer() {
  const script = path.join(repoRoot, "tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  try {
    accessSync(script, constants.R_OK);
  } catch {
    throw new Error("MCP test servers missing: run `npm install` in tests/mcp");
  }
  return script;
}

/** config.toml lines that give sessions server-everything over stdio, as `everything`. */
export function everythingToml() {
  return `\n[mcp_servers.everything]\ncommand = "node"\nargs = [${JSON.stringify(everythingServer())}, "stdio"]\n`;
}
