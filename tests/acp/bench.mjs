// How quickly `memo-cli acp` answers an editor, beside `memo-cli exec` in the same run:
// from spawning the process to `initialize` answered, and to the first
// `agent_message_chunk` of a prompt (initialize, session/new and session/prompt sent as
// an editor sends them), against the mock LLM; `memo-cli exec --json`'s time from spawn to
// its first `text_delta` is the baseline. Prints a table (median and p90 of RUNS starts).
//
//   node tests/acp/bench.mjs [target/debug]        (RUNS=10 by default)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

const targetDir = path.resolve(process.argv[2] ?? "target/debug");
const runs = Number(process.env.RUNS ?? 10);
const cli = path.join(targetDir, "memo-cli");
const work = mkdtempSync(path.join(tmpdir(), "memo-acp-bench-"));
const home = path.join(work, "home");
const cwd = path.join(work, "project");
for (const dir of [home, cwd]) mkdirSync(dir, { recursive: true });

// The mock answers every request with the same short streamed text.
const scenario = path.join(work, "scenario.json");
writeFileSync(scenario, JSON.stringify({ responses: [] }));
const mock = spawn(path.join(targetDir, "memo-mock-llm"), ["--scenario", scenario], { stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise((resolve) => {
  createInterface({ input: mock.stdout }).once("line", (line) => resolve(line.replace("listening on ", "").trim()));
});
async function queueAnswers(count) {
  const responses = Array.from({ length: count }, () => ({ text: "Hello from the mock, streamed in small pieces." }));
  await fetch(`${url}/__mock/responses`, { method: "POST", body: JSON.stringify({ responses }) });
}
writeFileSync(
  path.join(home, "config.toml"),
  `current_provider = "mock"\n\n[[providers.mock]]\nname = "mock"\nmodel = "mock-model"\nbase_url = "${url}/v1"\n`,
);
const env = { ...process.env, MEMO_HOME: home, RUST_LOG: "off" };

/** Milliseconds from spawn to `initialize` answered and to the first answer chunk. */
async function acpOnce() {
  const started = performance.now();
  const child = spawn(cli, ["acp"], { env, stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  const times = {};
  await new Promise((resolve, reject) => {
    lines.on("line", (line) => {
      const message = JSON.parse(line);
      if (message.id === 1) {
        times.initialize = performance.now() - started;
        send({ id: 2, method: "session/new", params: { cwd, mcpServers: [] } });
      } else if (message.id === 2) {
        if (message.error) reject(new Error(JSON.stringify(message.error)));
        send({ id: 3, method: "session/prompt", params: { sessionId: message.result.sessionId, prompt: [{ type: "text", text: "hi" }] } });
      } else if (message.params?.update?.sessionUpdate === "agent_message_chunk" && times.chunk === undefined) {
        times.chunk = performance.now() - started;
      } else if (message.id === 3) {
        resolve();
      }
    });
    send({ id: 1, method: "initialize", params: { protocolVersion: 1 } });
  });
  child.stdin.end();
  await new Promise((resolve) => child.on("exit", resolve));
  return times;
}

/** Milliseconds from spawn to the first `text_delta` of `memo-cli exec --json`. */
async function execOnce() {
  const started = performance.now();
  const child = spawn(cli, ["exec", "--json", "--cwd", cwd, "hi"], { env, stdio: ["ignore", "pipe", "inherit"] });
  let first;
  for await (const line of createInterface({ input: child.stdout })) {
    if (first === undefined && line.includes('"type":"text_delta"')) first = performance.now() - started;
  }
  return first;
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9) };
}

await queueAnswers(runs * 2 + 2);
// One of each first, unmeasured: the page cache and the store's first open.
await acpOnce();
await execOnce();
const acp = [];
const exec = [];
for (let i = 0; i < runs; i += 1) {
  acp.push(await acpOnce());
  exec.push(await execOnce());
}
mock.kill();

const rows = [
  ["memo-cli acp: spawn → initialize answered", stats(acp.map((t) => t.initialize))],
  ["memo-cli acp: spawn → first agent_message_chunk", stats(acp.map((t) => t.chunk))],
  ["memo-cli exec (baseline): spawn → first text_delta", stats(exec)],
];
console.log(`${runs} runs each, ${path.relative(process.cwd(), targetDir) || "."} binaries, mock LLM on loopback`);
console.log("| measure | median ms | p90 ms |");
console.log("| --- | ---: | ---: |");
for (const [name, { median, p90 }] of rows) console.log(`| ${name} | ${median.toFixed(1)} | ${p90.toFixed(1)} |`);
