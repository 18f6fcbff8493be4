// Strata explorer: search a group, draw an entity's neighbourhood (expand on click), show where a fact came
// from, and re-ask everything as of a day (valid time) or a chapter (a book's story). Plain DOM and the REST
// API; every value from the graph goes through textContent, never innerHTML.
"use strict";

const $ = (id) => document.getElementById(id);
const PALETTE = ["#2f6fde", "#e07b39", "#2e9e6b", "#b3478f", "#7a5cd6", "#c9a227", "#d64545", "#3aa0b5",
                 "#6b7f2a", "#8c5a3c"];

const state = {
  key: sessionStorage.getItem("strata.key") || "",
  group: sessionStorage.getItem("strata.group") || "",
  days: [],          // the group's clock: days a fact starts or ends
  books: [],
  clock: "valid",    // "valid" or a book's source uuid
  expanded: [],      // entity uuids whose neighbourhoods are drawn, in order
  focus: null,       // {kind: "entity"|"fact", uuid}
  pending: 0,
};

// -- the API ----------------------------------------------------------------------------------------------
async function api(path, params = {}) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") url.searchParams.set(k, v);
  busy(+1);
  try {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${state.key}` } });
    const body = await res.json().catch(() => ({}));
    if (res.status === 401 || res.status === 403) {
      askKey(body.error ? body.error.message : "this key may not read the group");
      throw new Error("unauthorized");
    }
    if (!res.ok) throw new Error(body.error ? body.error.message : `${res.status} ${res.statusText}`);
    return body;
  } catch (err) {
    if (err.message !== "unauthorized") say(err.message, true);
    throw err;
  } finally {
    busy(-1);
  }
}

function busy(delta) {
  state.pending += delta;
  document.body.dataset.busy = state.pending > 0 ? "true" : "false";
}

function say(text, error = false) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

const groupPath = (suffix) => `/v1/groups/${encodeURIComponent(state.group)}/${suffix}`;

// What every read is asked "as of": a day in valid time, or a chapter of one book.
function timeParams() {
  if (state.clock === "valid") return { as_of: asOfInstant() };
  return { source: state.clock, as_of_chapter: Number($("slider").value) };
}

// The instant the valid-time clock stands at (null: now, or a book's story).
function asOfInstant() {
  const at = Number($("slider").value);
  return state.clock === "valid" && at < state.days.length ? `${state.days[at]}T23:59:59Z` : null;
}

// Whether a fact has ended by the instant shown (reads with history include ended facts).
function endedBy(f) {
  if (state.clock !== "valid") return false;  // a story cut returns what holds there
  const t = asOfInstant() || new Date().toISOString();
  return Boolean(f.invalid_at) && f.invalid_at <= t;
}

function holdsAt(f, t) {
  return !f.expired_at && (!f.valid_at || f.valid_at <= t) && (!f.invalid_at || f.invalid_at > t);
}

// -- the clock ----------------------------------------------------------------------------------------------
async function loadClock() {
  const clock = await api(groupPath("clock"));
  state.days = clock.days;
  state.books = clock.books;
  const select = $("book");
  select.replaceChildren(new Option("valid time", "valid"));
  for (const b of state.books) select.add(new Option(`story: ${b.name}`, b.source_uuid));
  select.value = state.clock = "valid";
  resetSlider();
}

function resetSlider() {
  const slider = $("slider");
  if (state.clock === "valid") {
    slider.min = 0;
    slider.max = state.days.length;
    slider.value = state.days.length;  // the last stop is "now"
  } else {
    const book = state.books.find((b) => b.source_uuid === state.clock);
    slider.min = book.first_chapter ?? 0;
    slider.max = book.last_chapter ?? 0;
    slider.value = slider.max;
  }
  showAsOf();
}

function showAsOf() {
  const at = Number($("slider").value);
  $("as-of").textContent = state.clock === "valid"
    ? (at < state.days.length ? `as of ${state.days[at]}` : "now")
    : `through chapter ${at}`;
}

// -- search ----------------------------------------------------------------------------------------------
async function runSearch() {
  const q = $("q").value.trim();
  if (!q) return;
  const result = await api(groupPath("search"), { q, limit: 20, ...timeParams() });
  const list = $("hits");
  list.replaceChildren();
  for (const hit of result.hits) list.append(hitItem(hit));
  say(`${result.hits.length} hits`);
}

function hitItem(hit) {
  const li = el("li", { className: `hit ${hit.kind}` });
  li.dataset.kind = hit.kind;
  li.append(el("span", { className: "kind", textContent: hit.kind }));
  let what = "";
  if (hit.fact) what = hit.fact.fact;
  else if (hit.entity) what = `${hit.entity.name} (${hit.entity.type})`;
  else if (hit.episode) what = hit.episode.text;
  li.append(el("span", { className: "what", textContent: what.length > 160 ? `${what.slice(0, 160)}…` : what }));
  const prov = hit.provenance[0];
  if (prov) li.append(el("div", { className: "when", textContent: provLine(prov) }));
  li.addEventListener("click", () => openHit(hit));
  return li;
}

async function openHit(hit) {
  if (hit.fact) {
    await draw([hit.fact.subject_uuid]);
    await showFact(hit.fact.uuid);
  } else if (hit.entity) {
    await draw([hit.entity.uuid]);
    await showEntity(hit.entity.uuid);
  } else if (hit.provenance[0]) {
    const prov = hit.provenance[0];
    showPassage(hit.episode.text, prov);
  }
}

// -- the graph ----------------------------------------------------------------------------------------------
let cy = null;

function makeGraph() {
  cy = cytoscape({
    container: $("graph"),
    wheelSensitivity: 0.3,
    style: [
      { selector: "node", style: { label: "data(label)", "background-color": "data(color)", width: 26, height: 26,
                                   "font-size": 12, "text-valign": "bottom", "text-margin-y": 4,
                                   "text-outline-color": "#f7f8fa", "text-outline-width": 2 } },
      { selector: "node.center", style: { width: 36, height: 36, "border-width": 3, "border-color": "#1f2933" } },
      { selector: "edge", style: { label: "data(label)", "curve-style": "bezier", "target-arrow-shape": "triangle",
                                   width: 2, "line-color": "#9aa5b1", "target-arrow-color": "#9aa5b1",
                                   "font-size": 10, "text-rotation": "autorotate", "text-background-color": "#f7f8fa",
                                   "text-background-opacity": 1 } },
      { selector: "edge.ended", style: { "line-style": "dashed", "line-color": "#cbd2d9", color: "#9aa5b1" } },
      { selector: ":selected", style: { "line-color": "#2f6fde", "target-arrow-color": "#2f6fde",
                                        "border-color": "#2f6fde", "border-width": 3 } },
    ],
  });
  cy.on("tap", "node", async (evt) => {
    const uuid = evt.target.id();
    if (!state.expanded.includes(uuid)) await draw([...state.expanded, uuid]);
    await showEntity(uuid);
  });
  cy.on("tap", "edge", (evt) => showFact(evt.target.id()));
}

const TYPE_COLORS = { Person: "#2f6fde", Place: "#2e9e6b", Location: "#2e9e6b", Organization: "#e07b39",
                      Office: "#b3478f", Event: "#c9a227", Work: "#7a5cd6", Concept: "#3aa0b5" };

function colorOf(type) {
  if (TYPE_COLORS[type]) return TYPE_COLORS[type];
  let h = 0;
  for (const c of type) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length];
}

// Draw the neighbourhoods of `uuids` as of the clock, replacing what was drawn.
async function draw(uuids) {
  state.expanded = [...new Set(uuids)];
  const answers = await Promise.all(state.expanded.map((uuid) =>
    api(`/v1/entities/${encodeURIComponent(uuid)}/neighborhood`, { depth: 1, limit: 200, ...timeParams() })));
  const nodes = new Map();
  const edges = new Map();
  for (const n of answers) {
    for (const e of n.entities) nodes.set(e.uuid, { data: { id: e.uuid, label: e.name, type: e.type,
                                                             color: colorOf(e.type) } });
    for (const f of n.facts) edges.set(f.uuid, { data: { id: f.uuid, source: f.subject_uuid, target: f.object_uuid,
                                                          label: f.predicate }, classes: endedBy(f) ? "ended" : "" });
  }
  cy.elements().remove();
  cy.add([...nodes.values(), ...[...edges.values()].filter((e) => nodes.has(e.data.source) && nodes.has(e.data.target))]);
  for (const uuid of state.expanded) cy.getElementById(uuid).addClass("center");
  cy.layout({ name: "cose", animate: false, nodeRepulsion: () => 400000, idealEdgeLength: () => 120,
             edgeElasticity: () => 100, componentSpacing: 80, padding: 50, randomize: false }).run();
  say(`${cy.nodes().length} entities, ${cy.edges().length} facts`);
}

// -- the side panel ----------------------------------------------------------------------------------------
async function showFact(uuid) {
  state.focus = { kind: "fact", uuid };
  const hit = await api(`/v1/facts/${encodeURIComponent(uuid)}`);
  const f = hit.fact;
  cy.elements().unselect();
  cy.getElementById(uuid).select();
  $("entity").hidden = true;
  $("provenance").hidden = false;
  $("fact-sentence").textContent = f.fact;
  const meta = $("fact-meta");
  meta.replaceChildren();
  const status = f.expired_at ? `retracted ${day(f.expired_at)}` : f.invalid_at ? `ended ${day(f.invalid_at)}` : "holds";
  const rows = [["subject", f.subject_name], ["predicate", f.predicate], ["object", f.object_name],
                ["valid from", day(f.valid_at) || "—"], ["until", day(f.invalid_at) || "open"], ["status", status],
                ["learned", day(f.created_at)], ["said", day(hit.said_at) || "—"],
                ["asserted by", (f.asserted_by || []).join(", ") || "—"]];
  if (f.story_chapter !== null && f.story_chapter !== undefined) rows.push(["chapter", String(f.story_chapter)]);
  const at = asOfInstant();
  if (at) rows.push([`on ${day(at)}`, holdsAt(f, at) ? "held" : "did not hold"]);
  for (const [k, v] of rows) meta.append(el("dt", { textContent: k }), el("dd", { textContent: v }));
  const sources = $("fact-sources");
  sources.replaceChildren();
  for (const p of hit.provenance) sources.append(provItem(p));
  if (!hit.provenance.length) sources.append(el("li", { className: "meta", textContent: "no stored span" }));
}

function provItem(p) {
  const li = el("li");
  const said = p.messages.length ? p.messages.map((m) => m.text).join(" ") : p.text;
  if (said) li.append(el("blockquote", { textContent: said }));
  li.append(el("div", { className: "when", textContent: provLine(p) }));
  return li;
}

function provLine(p) {
  const speaker = p.speaker || (p.messages[0] && p.messages[0].speaker);
  const chapter = p.metadata && p.metadata.chapter;  // a book: its chapter places it; its date is the upload's
  const parts = [speaker, chapter ? null : day(p.reference_time), p.source_name, chapter];
  return parts.filter(Boolean).join(" · ");
}

function showPassage(text, prov) {
  $("entity").hidden = true;
  $("provenance").hidden = false;
  $("fact-sentence").textContent = "";
  $("fact-meta").replaceChildren();
  $("fact-sources").replaceChildren(provItem({ ...prov, text: prov.text || text }));
}

async function showEntity(uuid) {
  state.focus = { kind: "entity", uuid };
  const params = state.clock === "valid" ? {} : { source: state.clock, as_of_chapter: $("slider").value };
  const t = await api(`/v1/entities/${encodeURIComponent(uuid)}/timeline`, params);
  $("provenance").hidden = true;
  $("entity").hidden = false;
  $("entity-name").textContent = t.entity.name;
  const aliases = (t.entity.aliases || []).filter((a) => a !== t.entity.name);
  $("entity-meta").textContent = [t.entity.type, aliases.length ? `also ${aliases.join(", ")}` : "",
                                  t.entity.summary].filter(Boolean).join(" · ");
  const list = $("timeline");
  list.replaceChildren();
  for (const f of t.facts) {
    const li = el("li", { className: f.expired_at ? "retracted" : endedBy(f) ? "ended" : "" });
    const span = f.story_chapter !== null && f.story_chapter !== undefined
      ? `from chapter ${f.story_chapter}${f.story_until !== null && f.story_until !== undefined ? ", closed later in the story" : ""}`
      : f.valid_at ? `${day(f.valid_at)} → ${day(f.invalid_at) || "open"}` : "";
    li.append(el("span", { textContent: f.fact }), el("div", { className: "when", textContent: span }));
    li.addEventListener("click", () => showFact(f.uuid));
    list.append(li);
  }
  if (!t.facts.length) list.append(el("li", { className: "meta", textContent: "no facts" }));
}

// -- helpers and wiring --------------------------------------------------------------------------------------
function el(tag, props = {}) {
  return Object.assign(document.createElement(tag), props);
}

function day(value) {
  return value ? String(value).slice(0, 10) : "";
}

function askKey(why) {
  if (why) say(why, true);
  $("key").value = state.key;
  if (!$("key-dialog").open) $("key-dialog").showModal();
}

async function reask() {
  showAsOf();
  if (state.expanded.length) await draw(state.expanded);
  if ($("q").value.trim()) await runSearch();
  if (state.focus && state.focus.kind === "entity") await showEntity(state.focus.uuid);
  else if (state.focus && state.focus.kind === "fact") await showFact(state.focus.uuid);
}

async function start() {
  // A link may carry the key and group in its fragment (never sent to a server): take them and clear it.
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("key")) state.key = hash.get("key");
  if (hash.get("group")) state.group = hash.get("group");
  if (hash.get("key") || hash.get("group")) history.replaceState(null, "", location.pathname + location.search);
  sessionStorage.setItem("strata.key", state.key);
  sessionStorage.setItem("strata.group", state.group);
  $("group").value = state.group;
  makeGraph();

  $("search-form").addEventListener("submit", (e) => { e.preventDefault(); runSearch().catch(() => {}); });
  $("group").addEventListener("change", () => {
    state.group = $("group").value.trim();
    sessionStorage.setItem("strata.group", state.group);
    state.expanded = [];
    cy.elements().remove();
    loadClock().catch(() => {});
  });
  $("key-button").addEventListener("click", () => askKey(""));
  $("key-form").addEventListener("submit", (e) => {
    if (e.submitter && e.submitter.value !== "save") return;
    state.key = $("key").value.trim();
    sessionStorage.setItem("strata.key", state.key);
    say("");
    loadClock().then(reask).catch(() => {});
  });
  $("book").addEventListener("change", () => { state.clock = $("book").value; resetSlider(); reask().catch(() => {}); });
  $("slider").addEventListener("input", showAsOf);
  $("slider").addEventListener("change", () => reask().catch(() => {}));
  $("now").addEventListener("click", () => {
    state.clock = $("book").value = "valid";
    resetSlider();
    reask().catch(() => {});
  });

  window.explorer = { cy, state };  // for the browser tests and the curious
  if (!state.key) askKey("give an API key to read the group");
  else if (state.group) await loadClock().catch(() => {});
}

// A new link pasted over this page (same path, new fragment) starts over with its key and group.
window.addEventListener("hashchange", () => location.reload());

document.addEventListener("DOMContentLoaded", () => {
  if (typeof cytoscape === "undefined") {
    say("the graph library is missing: run `make ui` (vendors it from npm)", true);
    return;
  }
  start();
});
