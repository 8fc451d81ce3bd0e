// How people read a tool's name. The model calls an MCP server's tool `server__tool`
// (server names never contain `__`, Memo's own tools never do), rules name it
// `server:tool`, the engine's own text `server · tool`: one card showed all three. People
// read `server · tool` everywhere; the model-facing name only in a tooltip.

import { t } from "../i18n";

/** What separates server and tool in the name the model calls an MCP tool by. */
const MODEL_SEPARATOR = "__";

/** `github · create_issue`: an MCP tool as people read it. */
export function mcpToolLabel(server: string, tool: string): string {
  return `${server} · ${tool}`;
}

/** The server and tool of an MCP tool's model-facing name; null for one of Memo's own. */
export function mcpToolParts(name: string): { server: string; tool: string } | null {
  const at = name.indexOf(MODEL_SEPARATOR);
  if (at <= 0 || at + MODEL_SEPARATOR.length >= name.length) return null;
  return { server: name.slice(0, at), tool: name.slice(at + MODEL_SEPARATOR.length) };
}

/** Any tool's name as people read it: an MCP tool's as `server · tool`, Memo's unchanged. */
export function toolLabel(name: string): string {
  const parts = mcpToolParts(name);
  return parts === null ? name : mcpToolLabel(parts.server, parts.tool);
}

/** A tooltip naming what the model calls a tool, for an MCP tool only (else undefined). */
export function toolCalledAs(name: string): string | undefined {
  return mcpToolParts(name) === null ? undefined : t("transcript:card.calledAs", { name });
}

/**
 * An MCP rule's pattern (`server:tool`, `server:*`, maybe with `name=glob` arguments after a
 * space) as people read it: `server · tool`, `server · *`, the arguments kept.
 */
export function mcpRuleLabel(pattern: string): string {
  const space = pattern.search(/\s/);
  const [head, rest] = space < 0 ? [pattern, ""] : [pattern.slice(0, space), pattern.slice(space)];
  const colon = head.indexOf(":");
  if (colon <= 0 || colon === head.length - 1) return pattern;
  return mcpToolLabel(head.slice(0, colon), head.slice(colon + 1)) + rest;
}
