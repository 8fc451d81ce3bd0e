// Writes the start-up code order (src-tauri/startup-order.txt) from a linker map and
// callgrind profiles of the binary that map describes: every function the profiles ran,
// as the symbol the linker orders it by, the first profile's functions first (what a
// start runs), then those only the later ones ran (opening and streaming sessions).
//
// node order-file.mjs BINARY MAP PROFILE... > ORDER
//
// The binary is stripped; callgrind names its code by address, and the map says which
// function's section each address falls in. Within a group the functions keep the order
// they already had, so code that calls each other stays near.
import { readFileSync } from "node:fs";

const [binary, mapFile, ...profiles] = process.argv.slice(2);
if (!binary || !mapFile || profiles.length === 0) {
  console.error("usage: node order-file.mjs BINARY MAP PROFILE...");
  process.exit(2);
}

/** Section names that only say what kind of code a section holds. */
const SECTION_KINDS = new Set(["unlikely", "hot", "startup", "exit"]);

/** The functions' sections in .text: [start, end, symbol], sorted by start. */
function textSections(map) {
  // lld's map: "VMA LMA Size Align Out In Symbol"; an output section's line names it in the
  // Out column, an input section's line names the object and "(.text.<symbol>)".
  const sections = [];
  let inText = false;
  const output = /^\s*[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+\d+ (\S+)$/;
  const input = /^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s+\S.*:\(\.text(?:\.(?:unlikely|hot|startup|exit))?\.([^)]+)\)$/;
  for (const line of map.split("\n")) {
    const out = output.exec(line);
    if (out) {
      inText = out[1] === ".text";
      continue;
    }
    if (!inText) continue;
    const m = input.exec(line);
    // A C object's bare ".text.startup" (and the like) names no function.
    if (m && !SECTION_KINDS.has(m[3])) {
      const start = parseInt(m[1], 16);
      sections.push([start, start + parseInt(m[2], 16), m[3]]);
    }
  }
  return sections.sort((a, b) => a[0] - b[0]);
}

/** Every instruction address of `object` a callgrind profile (--dump-instr=yes) counts. */
function executedAddresses(profile, object) {
  const names = new Map();
  const addresses = new Set();
  let current = null;
  let last = 0;
  for (const line of profile.split("\n")) {
    const first = line[0];
    if (line.startsWith("ob=") || line.startsWith("cob=")) {
      const m = /^c?ob=\((\d+)\)(?: (.*))?$/.exec(line);
      if (!m) continue;
      if (m[2] !== undefined) names.set(m[1], m[2]);
      if (line[0] === "o") current = names.get(m[1]);
      continue;
    }
    if (first === undefined || !"0123456789+-*".includes(first)) continue;
    // A cost line starts with its position: absolute, or relative to the one before.
    const token = line.split(" ", 1)[0];
    if (token.startsWith("0x")) last = parseInt(token, 16);
    else if (first === "+") last += parseInt(token.slice(1), 10);
    else if (first === "-") last -= parseInt(token.slice(1), 10);
    else if (first !== "*") last = parseInt(token, 10);
    if (current === object) addresses.add(last);
  }
  return addresses;
}

function functionsRun(sections, addresses) {
  const starts = sections.map((s) => s[0]);
  const found = new Map();
  for (const address of addresses) {
    // The last section starting at or before the address.
    let lo = 0;
    let hi = starts.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= address) {
        at = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    const section = sections[at];
    if (section && address < section[1]) found.set(section[2], section[0]);
  }
  return found;
}

const sections = textSections(readFileSync(mapFile, "utf8"));
if (sections.length === 0) {
  console.error(`${mapFile}: no .text sections found (is it lld's map of ${binary}?)`);
  process.exit(1);
}
const seen = new Set();
for (const profile of profiles) {
  const run = functionsRun(sections, executedAddresses(readFileSync(profile, "utf8"), binary));
  const fresh = [...run].filter(([name]) => !seen.has(name)).sort((a, b) => a[1] - b[1]);
  console.error(`${profile}: ${run.size} functions run, ${fresh.length} not in an earlier profile`);
  for (const [name] of fresh) {
    seen.add(name);
    console.log(name);
  }
}
