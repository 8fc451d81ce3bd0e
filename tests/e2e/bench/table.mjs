// Prints the app benchmark's figures (one JSON line from app-bench.mjs) as a Markdown table,
// each with the hello-world baseline, the ratio and the target.
const [json, profile] = process.argv.slice(2);
const r = JSON.parse(json);
const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * p))];
};
const ms = (v) => `${v.toFixed(0)} ms`;
const mib = (v) => `${v.toFixed(0)} MiB`;
const split = (by) => (by ? `${by.app.toFixed(0)} / ${by.web.toFixed(0)} / ${by.network.toFixed(0)} MiB` : "-");
const ratio = (v, base) => `${(v / base).toFixed(2)}×`;
const added = (stream) => `+${(stream.pss - stream.pssBefore).toFixed(0)} MiB (${stream.pssBefore.toFixed(0)} → ${stream.pss.toFixed(0)})`;
const hello = r.baseline;
const frames = (f) => `${f.p50.toFixed(1)} / ${f.p95.toFixed(1)} / ${f.p99.toFixed(1)} / ${f.max.toFixed(0)} ms`;
const cpu = (i) => `${i.cpuPercent.toFixed(2)} % (${i.app.toFixed(2)} / ${i.web.toFixed(2)} / ${i.network.toFixed(2)})`;
const other = r.memo.rendering === "off" ? r.baselines?.default : r.baselines?.off;
const rows = [
  ["how the window draws (hello-world: the same)", r.memo.rendering === "off" ? "without compositing (no GPU)" : "WebKit's default", "same", "-", "-"],
  ["page's JavaScriptCore options (hello-world: the same)", Object.entries(r.memo.scriptOptions ?? {}).map(([k, v]) => `${k}=${v}`).join(" ") || "none", "same", "-", "-"],
  ["start to first paint (median of cold starts)", ms(r.memo.paint), ms(hello.paint), ratio(r.memo.paint, hello.paint), "-"],
  ["memory idle after start (PSS, app + WebKit)", mib(r.memo.pss), mib(hello.pss), ratio(r.memo.pss, hello.pss), "≤ 1.15×"],
  ["… by process: app / web / network", split(r.memo.pssBy), split(hello.pssBy), "-", "-"],
  ["10,000-message session (100 MB tool output): open to its end, interactive", ms(r.long.open), "-", "-", "< 500 ms"],
  ["… memory with it open", mib(r.long.pss), mib(hello.pss), ratio(r.long.pss, hello.pss), "≤ 1.3×"],
  ["… by process: app / web / network", split(r.long.pssBy), "-", "-", "-"],
  ["… scroll to its very top (every page read)", ms(r.long.top), "-", "-", "-"],
  ["… and back to the end", ms(r.long.back), "-", "-", "-"],
  ["… turns in the DOM at the end / memory after", `${r.long.turnsInDom} / ${mib(r.long.pssAfterTop)}`, mib(hello.pss), ratio(r.long.pssAfterTop, hello.pss), "-"],
  ["switch between two 1,000-message sessions: first opens", r.switching.cold.map(ms).join(", "), "-", "-", "-"],
  ["… warm switches, median / p95 / max", `${ms(pct(r.switching.warm, 0.5))} / ${ms(pct(r.switching.warm, 0.95))} / ${ms(Math.max(...r.switching.warm))}`, "-", "-", "< 150 ms"],
  [`streaming ${r.stream.tokensPerSecond.toFixed(0)} tokens/s for ${r.stream.seconds.toFixed(0)} s: frame interval p50 / p95 / p99 / max`, frames(r.stream), hello.stream ? frames(hello.stream) : "-", hello.stream ? ratio(r.stream.p95, hello.stream.p95) : "-", "p95 < 16.7 ms"],
  ["… memory at the end", mib(r.stream.pss), mib(hello.stream?.pss ?? hello.pss), ratio(r.stream.pss, hello.stream?.pss ?? hello.pss), "-"],
  // Memo streams after the long session's trip and the switches; the hello-world from idle.
  ["… of it added by the stream", added(r.stream), hello.stream ? added(hello.stream) : "-", hello.stream ? ratio(r.stream.pss - r.stream.pssBefore, hello.stream.pss - hello.stream.pssBefore) : "-", "-"],
  [`idle CPU over ${r.idle.seconds} s after it (of one core): total (app / web / network)`, cpu(r.idle), hello.idle ? cpu(hello.idle) : "-", "-", "< 1 %"],
];
rows.push([
  "… meanwhile in the window: DOM mutations / running animations",
  `${r.idle.mutations ?? "?"} / ${r.idle.animations ?? "?"}${r.idle.animated?.length ? ` (${r.idle.animated.join(", ")})` : ""}`,
  "-",
  "-",
  "0 / 0",
]);
if (r.idleLater) {
  rows.push([`… the next ${r.idleLater.seconds} s`, `${r.idleLater.cpuPercent.toFixed(2)} % (${r.idleLater.app.toFixed(2)} / ${r.idleLater.web.toFixed(2)} / ${r.idleLater.network.toFixed(2)})`, "-", "-", "< 1 %"]);
}
if (r.idle.pss !== undefined) {
  const last = r.idleLater ?? r.idle;
  rows.push([`… memory after the idle ${r.idle.seconds + (r.idleLater?.seconds ?? 0)} s`, mib(last.pss), hello.idle?.pss !== undefined ? mib(hello.idle.pss) : "-", hello.idle?.pss !== undefined ? ratio(last.pss, hello.idle.pss) : "-", "-"]);
}
if (r.flood) {
  rows.push([`terminal: ${r.flood.mb} MB of \`yes\`; longest frame gap`, `${r.flood.seconds.toFixed(1)} s; ${ms(r.flood.maxFrameGap)}`, "-", "-", "no freeze"]);
  rows.push(["… memory before / peak / after", `${mib(r.flood.before)} / ${mib(r.flood.peak)} / ${mib(r.flood.after)}`, "-", "-", "bounded"]);
}
if (other) {
  rows.push([
    `hello-world in the other rendering (${r.memo.rendering === "off" ? "WebKit's default compositing" : "without compositing"}): first paint / memory idle`,
    "-",
    `${ms(other.paint)} / ${mib(other.pss)}`,
    "-",
    "-",
  ]);
}
console.log(`\n| Memo (${profile} build) | measured | hello-world | ratio | target |`);
console.log("|---|---|---|---|---|");
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
