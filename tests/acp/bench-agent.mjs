// A minimal ACP agent for the update-latency benchmark (bench-external.mjs): answers
// initialize and session/new, and streams CHUNKS agent_message_chunks per prompt, each
// carrying the wall-clock time it was written ("@<epoch ms with fractions>;"). Not a
// test double: the tests run Claude Code's real agent; this one only has to be quick
// and predictable so that what is timed is the client.
import { createInterface } from "node:readline";

const chunks = Number(process.env.CHUNKS ?? 200);
const gapMs = Number(process.env.GAP_MS ?? 2);
const now = () => performance.timeOrigin + performance.now();
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.method === "initialize") {
    send({ id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [], agentInfo: { name: "bench-agent", version: "1" } } });
  } else if (message.method === "session/new") {
    send({ id: message.id, result: { sessionId: "bench" } });
  } else if (message.method === "session/prompt") {
    for (let i = 0; i < chunks; i++) {
      send({ method: "session/update", params: { sessionId: "bench", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `@${now().toFixed(3)};` } } } });
      await pause(gapMs);
    }
    send({ id: message.id, result: { stopReason: "end_turn" } });
  } else if (message.id !== undefined && message.method) {
    send({ id: message.id, error: { code: -32601, message: "Method not found" } });
  }
}
