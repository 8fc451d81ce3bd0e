// Runs memo-mock-llm (a scripted OpenAI/Anthropic/Gemini-compatible server on loopback)
// for one test, and stops it again however the test ends.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

import { mockLlmBinary } from "./paths.mjs";
import { stopProcessGroup } from "./processes.mjs";

const STARTUP_TIMEOUT_MS = 10_000;

/**
 * Starts the server with `scenario` ({responses: [...]}) and resolves once it listens;
 * `port` pins the port (a local server's usual one), `models` is what GET /v1/models lists.
 */
export async function startMockLlm(scenario, { port, models } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "memo-e2e-mock-"));
  const scenarioFile = path.join(dir, "scenario.json");
  writeFileSync(scenarioFile, JSON.stringify(scenario));

  // stdin stays a pipe we hold: --exit-on-stdin-eof makes the server exit on its own
  // if this runner dies without reaching stop().
  const args = ["--scenario", scenarioFile, "--exit-on-stdin-eof"];
  if (port !== undefined) args.push("--port", String(port));
  if (models !== undefined) args.push("--models", models.join(","));
  const child = spawn(mockLlmBinary(), args, {
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });

  const stop = async () => {
    child.stdin.end();
    await stopProcessGroup(child, 3000);
    rmSync(dir, { recursive: true, force: true });
  };

  let baseUrl;
  try {
    baseUrl = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`memo-mock-llm did not start: ${stderr}`)), STARTUP_TIMEOUT_MS);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`memo-mock-llm exited with ${code}: ${stderr}`));
      });
      createInterface({ input: child.stdout }).once("line", (line) => {
        clearTimeout(timer);
        const match = /^listening on (http:\/\/\S+)$/.exec(line.trim());
        if (match) resolve(match[1]);
        else reject(new Error(`unexpected first line from memo-mock-llm: ${line}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    baseUrl,
    stop,
    /** The model requests the server received, in order. */
    async requests() {
      const response = await fetch(`${baseUrl}/__mock/requests`);
      if (!response.ok) throw new Error(`/__mock/requests answered ${response.status}`);
      return response.json();
    },
  };
}

/** A config.toml whose only provider is the mock server (loopback needs no API key). */
export function mockConfigToml(baseUrl, model = "mock-model") {
  return `current_provider = "mock"\n[[providers.mock]]\nname = "mock"\nmodel = "${model}"\nbase_url = "${baseUrl}/v1"\n`;
}
