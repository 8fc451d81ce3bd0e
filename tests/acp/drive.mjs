// An ACP client made with the protocol's official TypeScript SDK, driving an agent
// (`memo-cli acp`) through the steps of a plan, and printing what it saw as one JSON
// line. The Rust tests (src-tauri/crates/cli/tests/acp_e2e.rs) write the plan and check
// the result; this file only speaks the protocol.
//
//   node drive.mjs PLAN.json
//
// The plan: {"command": [...argv], "env": {...}, "cwd": "/abs", "steps": [...]}, a step
// being one of
//   {"do": "initialize"}
//   {"do": "new"}                                   (the session the later steps use)
//   {"do": "prompt", "text": "...", "answers": ["once", "deny", "cancel"], "cancel_on_chunk": true}
//   {"do": "set_mode", "mode": "strict"}
//   {"do": "load"}                                  (the session of the last "new")
//   {"do": "raw", "method": "...", "params": {...}} (any request, answered or not; "$SESSION"
//   in the params is the open session's id)
//   {"do": "run", "argv": [...]}                    (another program, while the agent runs;
//                                                    "$SESSION" in an argument is the session)
//   {"do": "signal", "path": "/abs"}                (writes the session id there: "got this far")
//   {"do": "wait_for_file", "path": "/abs"}         (holds the agent open until the file exists)
//
// With "editor": {"buffers": {"/abs/path": "text"}} in the plan the client offers
// fs/read_text_file and fs/write_text_file as an editor does: a file with a buffer reads
// as the buffer (unsaved changes), others from disk; a write updates the buffer and saves
// the file. Each fs request is recorded in the step's "fs".
// With "editor": {"terminals": true} it offers terminal/* as an editor does: each command
// runs as a child process of this client, its output kept (within outputByteLimit, the
// oldest dropped) until released. Each terminal request is recorded in "terminals".
// Each step's result: its response or error, how long it took ("ms"), and for prompts and
// loads the updates and the permission requests that came while it ran.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";

import { client, ndJsonStream } from "@agentclientprotocol/sdk";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
const [program, ...args] = plan.command;
const child = spawn(program, args, { env: { ...process.env, ...plan.env }, stdio: ["pipe", "pipe", "inherit"] });
const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));

const editor = plan.editor ?? null;
const buffers = new Map(Object.entries(editor?.buffers ?? {}));
const offersFiles = editor !== null && editor.buffers !== undefined;
const offersTerminals = editor?.terminals === true;

/** The editor's terminals: id → {child, output, truncated, limit, exit, exited}. */
const terminals = new Map();
let terminalCount = 0;

function terminal(params) {
  const found = terminals.get(params.terminalId);
  if (!found) throw Object.assign(new Error(`no terminal ${params.terminalId}`), { code: -32602 });
  return found;
}

/** Kills a terminal's command and what it started, if it still runs. */
function stop(term) {
  if (term.exit !== null) return;
  try {
    process.kill(-term.child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

function keep(term, chunk) {
  term.output += chunk;
  // As an editor does: the oldest output goes first, at a character boundary.
  while (Buffer.byteLength(term.output) > term.limit) {
    term.output = term.output.slice(Math.max(1, term.output.length - term.limit));
    term.truncated = true;
  }
}

/** What the step that runs now collects. */
let current = null;
let sessionId = null;

function errorOf(error) {
  return { code: error.code ?? null, message: error.message ?? String(error), data: error.data ?? null };
}

const app = client({ name: "memo-acp-test" })
  .onNotification("session/update", ({ params }) => {
    current?.updates.push(params.update);
    if (current?.cancelOnChunk && params.update.sessionUpdate === "agent_message_chunk" && !current.cancelled) {
      current.cancelled = true;
      void current.context.notify("session/cancel", { sessionId: params.sessionId });
    }
  })
  .onRequest("fs/read_text_file", ({ params }) => {
    current?.fs.push({ method: "read", path: params.path });
    const text = buffers.has(params.path) ? buffers.get(params.path) : readFileSync(params.path, "utf8");
    return { content: text };
  })
  .onRequest("fs/write_text_file", ({ params }) => {
    current?.fs.push({ method: "write", path: params.path, content: params.content });
    buffers.set(params.path, params.content);
    writeFileSync(params.path, params.content);
    return {};
  })
  .onRequest("terminal/create", ({ params }) => {
    current?.terminals.push({ method: "create", command: params.command, args: params.args, cwd: params.cwd });
    const id = `term-${++terminalCount}`;
    const env = { ...process.env };
    for (const { name, value } of params.env ?? []) env[name] = value;
    const term = { output: "", truncated: false, limit: params.outputByteLimit ?? 1 << 20, exit: null };
    term.child = spawn(params.command, params.args ?? [], { cwd: params.cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    term.child.stdout.setEncoding("utf8").on("data", (chunk) => keep(term, chunk));
    term.child.stderr.setEncoding("utf8").on("data", (chunk) => keep(term, chunk));
    term.exited = new Promise((resolve) => {
      term.child.on("error", (error) => {
        keep(term, `${error.message}\n`);
        term.exit = { exitCode: 127, signal: null };
        resolve(term.exit);
      });
      term.child.on("close", (code, signal) => {
        term.exit = { exitCode: code, signal };
        resolve(term.exit);
      });
    });
    terminals.set(id, term);
    return { terminalId: id };
  })
  .onRequest("terminal/output", ({ params }) => {
    const term = terminal(params);
    return { output: term.output, truncated: term.truncated, exitStatus: term.exit };
  })
  .onRequest("terminal/wait_for_exit", async ({ params }) => {
    current?.terminals.push({ method: "wait_for_exit", terminalId: params.terminalId });
    return await terminal(params).exited;
  })
  .onRequest("terminal/kill", ({ params }) => {
    current?.terminals.push({ method: "kill", terminalId: params.terminalId });
    const term = terminal(params);
    stop(term);
    return {};
  })
  .onRequest("terminal/release", ({ params }) => {
    current?.terminals.push({ method: "release", terminalId: params.terminalId });
    const term = terminal(params);
    stop(term);
    terminals.delete(params.terminalId);
    return {};
  })
  .onRequest("session/request_permission", ({ params }) => {
    const asked = { options: params.options, toolCall: params.toolCall };
    current?.permissions.push(asked);
    const answer = current?.answers.shift() ?? "deny";
    if (answer === "cancel") {
      // As an editor does: the prompt is cancelled, and its open questions answered so.
      void current.context.notify("session/cancel", { sessionId: params.sessionId });
      return { outcome: { outcome: "cancelled" } };
    }
    return { outcome: { outcome: "selected", optionId: answer } };
  });

const results = await app.connectWith(stream, async (context) => {
  const out = [];
  for (const step of plan.steps) {
    current = {
      updates: [],
      permissions: [],
      fs: [],
      terminals: [],
      answers: [...(step.answers ?? [])],
      cancelOnChunk: step.cancel_on_chunk === true,
      cancelled: false,
      context,
    };
    const result = { step: step.do };
    const began = Date.now();
    try {
      switch (step.do) {
        case "initialize":
          result.response = await context.request("initialize", {
            protocolVersion: 1,
            clientCapabilities: { fs: { readTextFile: offersFiles, writeTextFile: offersFiles }, terminal: offersTerminals },
            clientInfo: { name: "memo-acp-test", version: "1" },
          });
          break;
        case "new":
          result.response = await context.request("session/new", { cwd: plan.cwd, mcpServers: step.mcp_servers ?? [] });
          sessionId = result.response.sessionId;
          break;
        case "prompt":
          result.response = await context.request("session/prompt", {
            sessionId: step.session ?? sessionId,
            prompt: step.blocks ?? [{ type: "text", text: step.text }],
          });
          break;
        case "set_mode":
          result.response = await context.request("session/set_mode", { sessionId, modeId: step.mode });
          break;
        case "load":
          result.response = await context.request("session/load", { sessionId, cwd: plan.cwd, mcpServers: [] });
          break;
        case "raw":
          // "$SESSION" in the params is the session opened by an earlier step.
          result.response = await context.request(step.method, JSON.parse(JSON.stringify(step.params ?? {}).replaceAll("$SESSION", sessionId)));
          break;
        case "run": {
          const [runProgram, ...runArgs] = step.argv.map((arg) => arg.replace("$SESSION", sessionId));
          const ran = spawnSync(runProgram, runArgs, { env: { ...process.env, ...plan.env }, encoding: "utf8", timeout: 60_000 });
          result.response = { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
          break;
        }
        case "signal":
          writeFileSync(step.path, sessionId ?? "");
          break;
        case "wait_for_file":
          while (!existsSync(step.path)) await new Promise((resolve) => setTimeout(resolve, 100));
          break;
        default:
          throw new Error(`unknown step ${step.do}`);
      }
    } catch (error) {
      result.error = errorOf(error);
    }
    // Updates sent after a response (the commands after session/new) come soon after.
    await new Promise((resolve) => setTimeout(resolve, step.settle_ms ?? 50));
    result.updates = current.updates;
    result.permissions = current.permissions;
    result.fs = current.fs;
    result.terminals = current.terminals;
    result.ms = Date.now() - began;
    out.push(result);
  }
  return out;
});

process.stdout.write(`${JSON.stringify(results)}\n`);
for (const term of terminals.values()) stop(term);
child.stdin.end();
const code = await new Promise((resolve) => child.on("exit", (status, signal) => resolve(signal ?? status)));
process.stderr.write(`agent exited: ${code}\n`);
process.exit(0);
