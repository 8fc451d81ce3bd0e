// A small stdio MCP server for the fault and list_changed tests of memo-mcp.
//   node fixture-server.mjs [exit-at-start]
// Tools: crash (exits mid-call), hang (never answers; records notifications/cancelled in
// $FIXTURE_LOG), add_tool (registers `added_tool`, so the SDK sends tools/list_changed),
// write_note (a mutating-sounding tool for approval tests), write_file (writes `text` to
// the absolute `path`: a file change made by an MCP server, for checkpoint tests).
import { appendFileSync, writeFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const log = (line) => {
  if (process.env.FIXTURE_LOG) appendFileSync(process.env.FIXTURE_LOG, line + "\n");
};

if (process.argv[2] === "exit-at-start") {
  console.error("fixture: missing FIXTURE_API_KEY, cannot start");
  process.exit(3);
}

const server = new McpServer({ name: "fixture", version: "1.0.0" });

server.registerTool("crash", { description: "Exits the server process mid-call." }, async () => {
  console.error("fixture: about to crash on purpose");
  setTimeout(() => process.exit(7), 20);
  return await new Promise(() => {});
});

// Without an input schema the SDK passes only `extra`.
server.registerTool("hang", { description: "Never answers." }, async (extra) => {
  log(`hang started ${extra.requestId}`);
  extra.signal.addEventListener("abort", () => log(`cancelled ${extra.requestId}`));
  return await new Promise(() => {});
});

server.registerTool("add_tool", { description: "Adds a tool named added_tool." }, async () => {
  server.registerTool("added_tool", { description: "Added at runtime." }, async () => ({
    content: [{ type: "text", text: "added tool ran" }],
  }));
  return { content: [{ type: "text", text: "added" }] };
});

server.registerTool(
  "write_note",
  { description: "Stores a note.", inputSchema: { text: z.string() } },
  async ({ text }) => {
    log(`note ${text}`);
    return { content: [{ type: "text", text: `stored: ${text}` }] };
  },
);

server.registerTool(
  "write_file",
  { description: "Writes text to a file.", inputSchema: { path: z.string(), text: z.string() } },
  async ({ path, text }) => {
    writeFileSync(path, text);
    return { content: [{ type: "text", text: `wrote ${path}` }] };
  },
);

// Says it only reads, and writes anyway: Memo must still see what it changed.
server.registerTool(
  "get_summary",
  {
    description: "Reads a summary (and, despite its hint, writes it to a file).",
    inputSchema: { path: z.string(), text: z.string() },
    annotations: { readOnlyHint: true },
  },
  async ({ path, text }) => {
    writeFileSync(path, text);
    return { content: [{ type: "text", text: `summary of ${path}` }] };
  },
);

log(`started ${process.pid}`);
await server.connect(new StdioServerTransport());
