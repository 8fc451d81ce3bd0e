#!/usr/bin/env python3
"""A fake model server that logs what coding agents send it, and a report of the logs.

    logging_llm.py serve --port 8790 --log-dir DIR [--answer TEXT]
    logging_llm.py report [--tokenizer URL] [--dump DIR] LABEL=DIR[,VERSION] ...

`serve` listens on 127.0.0.1 only. Every request is written to DIR as NNNN.json (method,
path, headers without credentials, body parsed as JSON when it is JSON). Each model call
is answered with one final text and no tool call, in the wire format the path asks for:
Anthropic Messages (/v1/messages, SSE or JSON), OpenAI Chat Completions
(/chat/completions), OpenAI Responses (/responses) and Gemini
(:generateContent, :streamGenerateContent?alt=sse). Model lists and token counts get a
plausible answer; anything else gets `{}`.

`report` picks, in DIR/run1, the first request that carries tools (the agent's main
request; side requests such as titles or routing carry none), splits it into system
text, tool definitions and messages, counts tokens with a llama.cpp server's /tokenize,
and prints a Markdown table; DIR/run2, when there, shows what changes between sessions.
"""

import argparse
import gzip
import json
import os
import re
import sys
import threading
import time
import urllib.request
import uuid
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

SECRET_HEADERS = {"authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie",
                  "proxy-authorization"}
MODEL_IDS = ["fake-model", "gpt-5", "claude-sonnet-4-5", "gemini-2.5-pro"]


# ---------------------------------------------------------------------------------------
# serve


class Recorder:
    def __init__(self, log_dir):
        self.log_dir = log_dir
        self.lock = threading.Lock()
        self.count = 0
        os.makedirs(log_dir, exist_ok=True)

    def write(self, record):
        with self.lock:
            self.count += 1
            name = os.path.join(self.log_dir, "%04d.json" % self.count)
        with open(name, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1, ensure_ascii=False)


def decode_body(raw, encoding):
    encoding = (encoding or "").lower()
    if encoding == "gzip":
        return gzip.decompress(raw)
    if encoding == "deflate":
        return zlib.decompress(raw)
    if encoding == "zstd":
        try:
            import zstandard  # not in the standard library; optional
            return zstandard.ZstdDecompressor().decompressobj().decompress(raw)
        except ImportError:
            return raw
    return raw


def value_for(schema):
    """A small value that fits a JSON schema (Gemini's upper-case types too)."""
    schema = schema or {}
    if schema.get("enum"):
        return schema["enum"][0]
    kind = str(schema.get("type", "object")).lower()
    if isinstance(schema.get("type"), list):
        kind = str(schema["type"][0]).lower()
    if kind == "object":
        props = schema.get("properties") or {}
        return {k: value_for(v) for k, v in props.items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return max(1, int(schema.get("minimum", 1)))
    if kind == "boolean":
        return False
    return "ok"


def structured_answer(body, answer):
    """The answer, or a JSON object when the request asks for JSON output."""
    gen = body.get("generationConfig") or {}
    schema = gen.get("responseJsonSchema") or gen.get("responseSchema")
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        schema = (fmt.get("json_schema") or {}).get("schema") or {}
    elif fmt.get("type") == "json_object":
        schema = {"type": "object"}
    if schema is None and gen.get("responseMimeType") == "application/json":
        schema = {"type": "object"}
    return answer if schema is None else json.dumps(value_for(schema))


def usage_numbers(body_bytes):
    # A rough count so agents that show or check usage see something sensible.
    return max(1, body_bytes // 4), 8


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "logging-llm/1"

    def log_message(self, fmt, *args):  # quiet: the log directory is the record
        pass

    # -- plumbing --------------------------------------------------------------------

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            raw = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    break
                raw += self.rfile.read(size)
                self.rfile.readline()
        else:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        return raw

    def record(self, raw, plain):
        body = None
        text = plain.decode("utf-8", "replace")
        try:
            body = json.loads(text) if text else None
        except ValueError:
            body = None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in SECRET_HEADERS}
        self.server.recorder.write({
            "time": time.time(),
            "method": self.command,
            "path": self.path,
            "headers": headers,
            "wire_bytes": len(raw),
            "body_bytes": len(plain),
            "body": body,
            "body_text": None if body is not None else text,
        })
        return body if isinstance(body, dict) else {}

    def send_json(self, obj, status=200):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def start_sse(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.close_connection = True
        self.end_headers()

    def sse(self, data, event=None):
        chunk = ""
        if event:
            chunk += "event: %s\n" % event
        chunk += "data: %s\n\n" % (data if isinstance(data, str) else json.dumps(data))
        self.wfile.write(chunk.encode())
        self.wfile.flush()

    # -- verbs -------------------------------------------------------------------------

    def do_GET(self):
        self.record(b"", b"")
        path = urlsplit(self.path).path
        if "v1beta" in path and path.rstrip("/").endswith("/models"):
            self.send_json({"models": [{"name": "models/" + m, "displayName": m}
                                       for m in MODEL_IDS]})
        elif path.rstrip("/").endswith("/models"):
            self.send_json({"object": "list", "data": [
                {"id": m, "object": "model", "type": "model", "display_name": m,
                 "created": 0, "owned_by": "logging-llm"} for m in MODEL_IDS],
                "has_more": False, "first_id": MODEL_IDS[0], "last_id": MODEL_IDS[-1]})
        else:
            self.send_json({})

    def do_HEAD(self):
        self.record(b"", b"")
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        raw = self.read_body()
        plain = decode_body(raw, self.headers.get("Content-Encoding"))
        body = self.record(raw, plain)
        path = urlsplit(self.path).path
        answer = structured_answer(body, self.server.answer)
        tokens_in, tokens_out = usage_numbers(len(plain))
        if path.endswith("/messages/count_tokens"):
            self.send_json({"input_tokens": tokens_in})
        elif path.endswith("/messages"):
            self.anthropic(body, answer, tokens_in, tokens_out)
        elif path.endswith("/chat/completions"):
            self.chat(body, answer, tokens_in, tokens_out)
        elif path.endswith("/responses"):
            self.openai_responses(body, answer, tokens_in, tokens_out)
        elif path.endswith(":countTokens"):
            self.send_json({"totalTokens": tokens_in})
        elif path.endswith(":streamGenerateContent") or path.endswith(":generateContent"):
            self.gemini(path.endswith(":streamGenerateContent"), answer, tokens_in, tokens_out)
        else:
            self.send_json({})

    # -- wire formats ------------------------------------------------------------------

    def anthropic(self, body, answer, tokens_in, tokens_out):
        model = body.get("model", "fake-model")
        msg_id = "msg_" + uuid.uuid4().hex[:24]
        usage = {"input_tokens": tokens_in, "output_tokens": tokens_out,
                 "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        if not body.get("stream"):
            self.send_json({"id": msg_id, "type": "message", "role": "assistant",
                            "model": model, "content": [{"type": "text", "text": answer}],
                            "stop_reason": "end_turn", "stop_sequence": None,
                            "usage": usage})
            return
        self.start_sse()
        self.sse({"type": "message_start", "message": {
            "id": msg_id, "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": dict(usage, output_tokens=1)}}, "message_start")
        self.sse({"type": "content_block_start", "index": 0,
                  "content_block": {"type": "text", "text": ""}}, "content_block_start")
        self.sse({"type": "content_block_delta", "index": 0,
                  "delta": {"type": "text_delta", "text": answer}}, "content_block_delta")
        self.sse({"type": "content_block_stop", "index": 0}, "content_block_stop")
        self.sse({"type": "message_delta",
                  "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                  "usage": {"output_tokens": tokens_out}}, "message_delta")
        self.sse({"type": "message_stop"}, "message_stop")

    def chat(self, body, answer, tokens_in, tokens_out):
        model = body.get("model", "fake-model")
        cid = "chatcmpl-" + uuid.uuid4().hex[:24]
        created = int(time.time())
        usage = {"prompt_tokens": tokens_in, "completion_tokens": tokens_out,
                 "total_tokens": tokens_in + tokens_out}
        if not body.get("stream"):
            self.send_json({"id": cid, "object": "chat.completion", "created": created,
                            "model": model, "choices": [{
                                "index": 0, "finish_reason": "stop",
                                "message": {"role": "assistant", "content": answer}}],
                            "usage": usage})
            return
        base = {"id": cid, "object": "chat.completion.chunk", "created": created,
                "model": model}
        self.start_sse()
        self.sse(dict(base, choices=[{"index": 0, "finish_reason": None,
                                      "delta": {"role": "assistant", "content": ""}}]))
        self.sse(dict(base, choices=[{"index": 0, "finish_reason": None,
                                      "delta": {"content": answer}}]))
        self.sse(dict(base, choices=[{"index": 0, "finish_reason": "stop", "delta": {}}]))
        self.sse(dict(base, choices=[], usage=usage))
        self.sse("[DONE]")

    def openai_responses(self, body, answer, tokens_in, tokens_out):
        model = body.get("model", "fake-model")
        rid = "resp_" + uuid.uuid4().hex[:24]
        mid = "msg_" + uuid.uuid4().hex[:24]
        part = {"type": "output_text", "text": answer, "annotations": []}
        item = {"id": mid, "type": "message", "role": "assistant", "status": "completed",
                "content": [part]}
        usage = {"input_tokens": tokens_in, "output_tokens": tokens_out,
                 "total_tokens": tokens_in + tokens_out,
                 "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens_details": {"reasoning_tokens": 0}}
        done = {"id": rid, "object": "response", "created_at": int(time.time()),
                "status": "completed", "model": model, "output": [item], "usage": usage}
        if not body.get("stream"):
            self.send_json(done)
            return
        pending = dict(done, status="in_progress", output=[], usage=None)
        seq = iter(range(1000))
        self.start_sse()
        for event, data in [
            ("response.created", {"response": pending}),
            ("response.in_progress", {"response": pending}),
            ("response.output_item.added", {"output_index": 0, "item": dict(
                item, status="in_progress", content=[])}),
            ("response.content_part.added", {"output_index": 0, "item_id": mid,
                                             "content_index": 0,
                                             "part": dict(part, text="")}),
            ("response.output_text.delta", {"output_index": 0, "item_id": mid,
                                            "content_index": 0, "delta": answer}),
            ("response.output_text.done", {"output_index": 0, "item_id": mid,
                                           "content_index": 0, "text": answer}),
            ("response.content_part.done", {"output_index": 0, "item_id": mid,
                                            "content_index": 0, "part": part}),
            ("response.output_item.done", {"output_index": 0, "item": item}),
            ("response.completed", {"response": done}),
        ]:
            self.sse(dict(data, type=event, sequence_number=next(seq)), event)

    def gemini(self, stream, answer, tokens_in, tokens_out):
        chunk = {"candidates": [{"content": {"role": "model", "parts": [{"text": answer}]},
                                 "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": tokens_in,
                                   "candidatesTokenCount": tokens_out,
                                   "totalTokenCount": tokens_in + tokens_out},
                 "modelVersion": "gemini-2.5-pro"}
        if not stream:
            self.send_json(chunk)
            return
        self.start_sse()
        self.sse(chunk)


def serve(args):
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.recorder = Recorder(args.log_dir)
    server.answer = args.answer
    print("listening on http://127.0.0.1:%d, logging to %s" % (args.port, args.log_dir),
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


# ---------------------------------------------------------------------------------------
# report


def text_of(content):
    """The text in a message content: a string, or a list of typed parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    out = []
    for part in content:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, dict):
            if isinstance(part.get("text"), str):
                out.append(part["text"])
            elif "content" in part:  # tool results
                out.append(text_of(part["content"]))
    return "\n".join(t for t in out if t)


def split_request(rec):
    """(format, system text, tools list, message texts, cache markers) of one request."""
    body = rec.get("body") or {}
    path = urlsplit(rec["path"]).path
    cache_marks = json.dumps(body).count('"cache_control"')
    if path.endswith("/messages"):
        # Claude Code also sends role "system" entries inside messages (a beta): they
        # count as system text here.
        sys_parts, msgs = [text_of(body.get("system"))], []
        for m in body.get("messages", []):
            (sys_parts if m.get("role") == "system" else msgs).append(
                text_of(m.get("content")))
        return ("anthropic", "\n".join(t for t in sys_parts if t), body.get("tools") or [],
                msgs, cache_marks)
    if path.endswith("/chat/completions"):
        sys_parts, msgs = [], []
        for m in body.get("messages", []):
            (sys_parts if m.get("role") in ("system", "developer") else msgs).append(
                text_of(m.get("content")))
        return "chat", "\n".join(sys_parts), body.get("tools") or [], msgs, cache_marks
    if path.endswith("/responses"):
        sys_parts = [body["instructions"]] if body.get("instructions") else []
        msgs, tools = [], list(body.get("tools") or [])
        items = body.get("input")
        items = [{"role": "user", "content": items}] if isinstance(items, str) else items or []
        for m in items:
            if m.get("type") == "additional_tools":  # Codex sends its tools as an input item
                tools.extend(m.get("tools") or [])
                continue
            (sys_parts if m.get("role") in ("system", "developer") else msgs).append(
                text_of(m.get("content")))
        return "responses", "\n".join(sys_parts), tools, msgs, cache_marks
    if "generatecontent" in path.lower():
        system = text_of((body.get("systemInstruction") or {}).get("parts"))
        msgs = [text_of(c.get("parts")) for c in body.get("contents", [])]
        return "gemini", system, body.get("tools") or [], msgs, cache_marks
    return None, "", [], [], 0


def tool_count(fmt, tools):
    """Callable tools: Gemini's function declarations, Codex's namespaces opened."""
    n = 0
    for t in tools:
        inner = (t.get("functionDeclarations") or t.get("function_declarations")
                 or (t.get("tools") if t.get("type") == "namespace" else None))
        n += tool_count(fmt, inner) if inner else 1
    return n


class Tokenizer:
    def __init__(self, url):
        self.url = url.rstrip("/") + "/tokenize"

    def __call__(self, text):
        if not text:
            return 0
        req = urllib.request.Request(self.url, data=json.dumps({"content": text}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as resp:
            return len(json.load(resp)["tokens"])


def compact(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def load(log_dir):
    recs = []
    for name in sorted(os.listdir(log_dir)):
        if name.endswith(".json"):
            with open(os.path.join(log_dir, name), encoding="utf-8") as f:
                rec = json.load(f)
            rec["file"] = name
            recs.append(rec)
    return recs


def main_request(recs):
    """The first model call that carries tools, or None."""
    return next((r for r in recs if split_request(r)[0] and split_request(r)[2]), None)


def model_in_path(path):
    """Gemini names the model in the path: /v1beta/models/NAME:method."""
    return urlsplit(path).path.rsplit("/", 1)[-1].split(":")[0]


def analyse(log_dir, count):
    recs = load(log_dir)
    main = main_request(recs)
    if main is None:
        return None
    fmt, system, tools, msgs, marks = split_request(main)
    tools_json = compact(tools)
    messages_text = "\n".join(msgs)
    total_text = "\n".join(t for t in (system, tools_json, messages_text) if t)
    side = []
    for r in recs:
        if r is main:
            continue
        kind = "%s %s" % (r["method"], urlsplit(r["path"]).path)
        body = r.get("body") or {}
        if split_request(r)[0]:
            kind += " (%d bytes, model %s, %s main)" % (
                r["body_bytes"], body.get("model") or model_in_path(r["path"]),
                "before" if r["time"] < main["time"] else "after")
        side.append(kind)
    return {
        "file": main["file"], "format": fmt, "path": urlsplit(main["path"]).path,
        "model": (main.get("body") or {}).get("model") or model_in_path(main["path"]),
        "body_bytes": main["body_bytes"], "wire_bytes": main["wire_bytes"],
        "tools": tool_count(fmt, tools),
        "system_bytes": len(system.encode()), "system_tokens": count(system),
        "tools_bytes": len(tools_json.encode()), "tools_tokens": count(tools_json),
        "messages_bytes": len(messages_text.encode()), "messages_tokens": count(messages_text),
        "total_tokens": count(total_text), "cache_markers": marks,
        "model_calls": sum(1 for r in recs if split_request(r)[0]), "requests": len(recs),
        "side": side, "system": system, "tools_json": tools_json, "messages": msgs,
        "body": main.get("body") or {}, "time": main["time"],
    }


def date_forms(when):
    day = time.localtime(when)
    forms = {time.strftime(f, day) for f in ("%Y-%m-%d", "%B %d, %Y", "%b %d %Y", "%d %B %Y",
                                             "%Y/%m/%d", "%m/%d/%Y")}
    forms.add(time.strftime("%B ", day) + str(day.tm_mday) + time.strftime(", %Y", day))
    return forms


def where_dated(info):
    forms = date_forms(info["time"])
    places = []
    if any(f in info["system"] for f in forms):
        places.append("system")
    if any(f in m for m in info["messages"] for f in forms):
        places.append("messages")
    return "+".join(places) or "no"


def changed_lines(a, b, limit=3):
    import difflib
    out = []
    for line in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0):
        if line.startswith("-") and not line.startswith("---"):
            out.append(line[1:].strip()[:90])
    return out[:limit]


def differing_paths(a, b, path=""):
    """JSON paths (list indexes shown as []) whose values differ between a and b."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            yield from differing_paths(a.get(k), b.get(k), "%s.%s" % (path, k) if path else k)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for x, y in zip(a, b):
            yield from differing_paths(x, y, path + "[]")
    elif a != b:
        yield path


def compare(first, second):
    """What differs between the main requests of two runs of one agent."""
    if second is None:
        return "no second run", []
    notes = []
    sys_changes = changed_lines(first["system"], second["system"])
    same_sys = first["system"] == second["system"]
    same_tools = first["tools_json"] == second["tools_json"]
    if not same_sys:
        notes.append("system text changed: " + " / ".join("`%s`" % l for l in sys_changes))
    if not same_tools:
        notes.append("tool definitions changed")
    paths = sorted(set(differing_paths(first["body"], second["body"])))
    if paths:
        notes.append("body values that differ: " + ", ".join("`%s`" % p for p in paths[:8])
                     + (" and %d more" % (len(paths) - 8) if len(paths) > 8 else ""))
    verdict = "yes" if same_sys and same_tools else "no"
    return verdict, notes


def report(args):
    count = Tokenizer(args.tokenizer)
    rows = []
    for spec in args.runs:
        label, _, rest = spec.partition("=")
        agent_dir, _, version = rest.partition(",")
        run_dirs = sorted(d for d in (os.listdir(agent_dir) if os.path.isdir(agent_dir) else [])
                          if d.startswith("run") and os.path.isdir(os.path.join(agent_dir, d)))
        infos = [analyse(os.path.join(agent_dir, d), count) for d in run_dirs]
        rows.append((label, version, infos))
    print("| agent | version | tools | body bytes | system bytes | system tok | tools bytes "
          "| tools tok | total tok | date in prompt | system+tools same in run 2 |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|---|---|")
    for label, version, infos in rows:
        i = infos[0] if infos else None
        if i is None:
            print("| %s | %s | no model request with tools recorded | | | | | | | | |"
                  % (label, version))
            continue
        same, _ = compare(i, infos[1] if len(infos) > 1 else None)
        print("| %s | %s | %d | %d | %d | %d | %d | %d | %d | %s | %s |" % (
            label, version, i["tools"], i["body_bytes"], i["system_bytes"],
            i["system_tokens"], i["tools_bytes"], i["tools_tokens"], i["total_tokens"],
            where_dated(i), same))
    print()
    print("Main request: the first model call that carries tool definitions, run 1 (fresh "
          "home). Tokens: Qwen2.5 tokenizer (llama.cpp /tokenize) of the text, no chat "
          "template. system = system/developer/instructions text (role-system messages "
          "included); tools = the tool definitions as compact JSON; total = system, tools "
          "and every other message's text together. body bytes = the JSON body as sent.")
    print()
    for label, version, infos in rows:
        i = infos[0] if infos else None
        if i is None:
            continue
        _, notes = compare(i, infos[1] if len(infos) > 1 else None)
        print("- **%s**: `%s` %s, model `%s`; %d requests (%d model calls); cache_control "
              "markers: %d; messages: %d bytes / %d tok; other requests: %s%s" % (
                  label, i["format"], i["path"], i["model"], i["requests"],
                  i["model_calls"], i["cache_markers"], i["messages_bytes"],
                  i["messages_tokens"], "; ".join(i["side"]) or "none",
                  ("; run 2: " + "; ".join(notes)) if notes else ""))
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
        for label, version, infos in rows:
            if not infos or infos[0] is None:
                continue
            i = infos[0]
            base = os.path.join(args.dump, re.sub(r"[^A-Za-z0-9_.-]+", "_", label))
            with open(base + ".system.txt", "w", encoding="utf-8") as f:
                f.write(i["system"])
            with open(base + ".tools.json", "w", encoding="utf-8") as f:
                f.write(i["tools_json"])
            with open(base + ".messages.txt", "w", encoding="utf-8") as f:
                f.write("\n\n----- next message -----\n\n".join(i["messages"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("serve")
    p.add_argument("--port", type=int, default=8790)
    p.add_argument("--log-dir", required=True)
    p.add_argument("--answer", default="It prints hello from memo.")
    p = sub.add_parser("report")
    p.add_argument("--tokenizer", default="http://127.0.0.1:8766")
    p.add_argument("--dump", help="write each main request's parts to this folder")
    p.add_argument("runs", nargs="+", metavar="LABEL=DIR[,VERSION]",
                   help="DIR holds run1/, run2/... log directories of one agent")
    args = parser.parse_args()
    if args.cmd == "serve":
        serve(args)
    else:
        report(args)


if __name__ == "__main__":
    sys.exit(main())
