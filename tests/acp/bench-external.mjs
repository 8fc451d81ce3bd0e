// How long an external agent's update takes to reach Memo's front ends, beside the same
// agent read directly in the same run. An ACP agent (bench-agent.mjs) streams chunks that
// carry the time they were written; the baseline reads its stdout straight from a pipe;
// "through Memo" runs it as an external agent with `memo-cli exec --external-agent --json`
// and reads the `text_delta` events Memo prints (stored in SQLite before they are
// delivered, as the window receives them). Prints median, p90 and p99 per path.
//
//   node tests/acp/bench-external.mjs [target/debug]     (CHUNKS=200, RUNS=3)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const targetDir = path.resolve(process.argv[2] ?? "target/debug");
const runs = Number(process.env.RUNS ?? 3);
const agent = path.join(path.dirname(fileURLToPath(import.meta.url)), "bench-agent.mjs");
const now = () => performance.timeOrigin + performance.now();
const work = mkdtempSync(path.join(tmpdir(), "memo-external-bench-"));
const home = path.join(work, "home");
const cwd = path.join(work, "project");
for (const dir of [home, cwd]) mkdirSync(dir, { recursive: true });
writeFileSync(
  path.join(home, "config.toml"),
  `[external_agents.bench]\ncommand = "node"\nargs = [${JSON.stringify(agent)}]\n`,
);

/** Delays (ms) of each stamped chunk found in `text` as it is read now. */
function delays(text, into) {
  const at = now();
  for (const match of text.matchAll(/@(\d+\.\d+);/g)) into.push(at - Number(match[1]));
}

async function direct() {
  const found = [];
  const child = spawn("node", [agent], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const write = (m) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
  write({ id: 1, method: "initialize", params: { protocolVersion: 1 } });
  write({ id: 2, method: "session/new", params: { cwd, mcpServers: [] } });
  write({ id: 3, method: "session/prompt", params: { sessionId: "bench", prompt: [{ type: "text", text: "go" }] } });
  for await (const line of lines) {
    delays(line, found);
    if (line.includes('"id":3')) break;
  }
  child.kill();
  return found;
}

async function throughMemo() {
  const found = [];
  const child = spawn(path.join(targetDir, "memo-cli"), ["exec", "go", "--json", "--external-agent", "bench", "--cwd", cwd], {
    env: { ...process.env, MEMO_HOME: home, RUST_LOG: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.includes('"text_delta"')) delays(line, found);
  }
  return found;
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: sorted.length, median: at(0.5), p90: at(0.9), p99: at(0.99) };
}

const results = { "agent read directly (baseline)": [], "through Memo (memo-cli exec --external-agent)": [] };
for (let i = 0; i < runs; i++) {
  results["agent read directly (baseline)"].push(...(await direct()));
  results["through Memo (memo-cli exec --external-agent)"].push(...(await throughMemo()));
}
console.log("| path | chunks | median ms | p90 ms | p99 ms |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const [name, values] of Object.entries(results)) {
  const s = stats(values);
  console.log(`| ${name} | ${s.n} | ${s.median.toFixed(2)} | ${s.p90.toFixed(2)} | ${s.p99.toFixed(2)} |`);
}
rmSync(work, { recursive: true, force: true });
