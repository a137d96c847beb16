// The inspector of a server in testing mode: sessions, their navigation, scenes, snapshots,
// events and journal, followed live over the server's own routes and Server-Sent Events.
// Every value of the app is put into the page as text (textContent), never as markup.
"use strict";

const inspector = {
  session: null,
  streams: [],
  catalogue: new Map(),
  scenes: new Map(),
  events: new Map(),
  // The keys on the navigation (shown), and every key of the session's store.
  shownKeys: [],
  storeKeys: [],
  // How many reads of the store were started: the number of the latest.
  storeReads: 0,
  // The schemas of the app's contract, by component name.
  schemas: {},
};

function el(tag, options = {}, ...children) {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined) node.textContent = String(options.text);
  for (const [name, value] of Object.entries(options.attributes || {})) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

function text(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function keyPath(key) {
  return key.split("/").map(encodeURIComponent).join("/");
}

// The page's reads are an observer's (MVVM-Observer): they leave the session's idle time and
// expiry to its clients.
async function api(method, path, body) {
  const options = { method, headers: method === "GET" ? { "MVVM-Observer": "inspector" } : {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const raw = await response.text();
  let json = null;
  try { json = raw ? JSON.parse(raw) : null; } catch (error) { json = null; }
  return { status: response.status, json, raw };
}

function report(title, body) {
  const box = document.getElementById("report");
  box.hidden = false;
  box.replaceChildren(el("strong", { text: title }), document.createTextNode("\n"), body);
}

function problemText(answer) {
  return answer.json && answer.json.detail ? `${answer.status}: ${answer.json.detail}` : `${answer.status}`;
}

// The test clock.
async function refreshClock() {
  const answer = await api("GET", "/testing/clock");
  if (answer.status !== 200) return;
  document.getElementById("clock-now").textContent = String(answer.json.now);
  const next = answer.json.nextDeadline;
  document.getElementById("clock-waiting").textContent =
    answer.json.waiting ? `${answer.json.waiting} waiting, next at ${next} s` : "nothing waits";
}

async function advance(seconds) {
  const answer = await api("POST", "/testing/clock/advance", { seconds });
  if (answer.status !== 200) report("Advance refused", document.createTextNode(problemText(answer)));
  await refreshClock();
}

// The sessions.
async function refreshSessions() {
  const answer = await api("GET", "/testing/sessions");
  if (answer.status !== 200) return;
  const list = document.getElementById("session-list");
  list.replaceChildren(...answer.json.sessions.map((session) => {
    const item = el("li", { attributes: { "data-session": session.id } },
      el("code", { text: session.id }),
      el("small", { text: `age ${Math.round(session.ageSeconds)} s, idle ${Math.round(session.idleSeconds)} s` }));
    if (session.id === inspector.session) item.classList.add("selected");
    item.addEventListener("click", () => select(session.id));
    return item;
  }));
}

function closeStreams() {
  for (const stream of inspector.streams) stream.close();
  inspector.streams = [];
  inspector.scenes.clear();
  inspector.events.clear();
}

function follow(path, events, handler) {
  const stream = new EventSource(path);
  for (const name of events) {
    stream.addEventListener(name, (message) => handler(name, JSON.parse(message.data)));
  }
  stream.addEventListener("gone", () => {
    report("Session gone", document.createTextNode("The session was deleted or expired."));
    stream.close();
  });
  inspector.streams.push(stream);
  return stream;
}

function select(id) {
  closeStreams();
  inspector.session = id;
  history.replaceState(null, "", `/inspector?session=${encodeURIComponent(id)}`);
  document.getElementById("session").hidden = false;
  document.getElementById("session-id").textContent = id;
  document.getElementById("report").hidden = true;
  document.getElementById("scenes").replaceChildren();
  inspector.scenes.clear();
  inspector.shownKeys = [];
  inspector.storeKeys = [];
  document.getElementById("export-json").href = `/sessions/${encodeURIComponent(id)}/journal`;
  document.getElementById("export-curl").href = `/sessions/${encodeURIComponent(id)}/journal?format=curl`;
  const base = `/sessions/${encodeURIComponent(id)}`;
  follow(`${base}/navigation`, ["navigation"], (_, navigation) => showNavigation(navigation));
  follow(`${base}/events`, ["events"], (_, events) => {
    showEvents(events);
    refreshStore();
    readScenes();
    refreshJournal();
  });
  refreshStore();
  refreshJournal();
  refreshSessions();
}

// Navigation: root, pushes, the modal and slots, as a tree.
function entryNode(entry) {
  const node = el("li", {}, el("code", { text: entry.key }), document.createTextNode(` ${entry.presentation || ""}`));
  const slots = Object.entries(entry.slots || {});
  if (slots.length) {
    node.append(el("ul", {}, ...slots.map(([slot, child]) => {
      const item = entryNode(child);
      item.prepend(document.createTextNode(`${slot}: `));
      return item;
    })));
  }
  return node;
}

function shownKeys(entry, keys) {
  keys.push(entry.key);
  for (const child of Object.values(entry.slots || {})) shownKeys(child, keys);
  return keys;
}

function showNavigation(navigation) {
  const tree = el("ul", {}, ...navigation.stack.map(entryNode));
  if (navigation.modal) {
    const modal = entryNode(navigation.modal);
    modal.prepend(document.createTextNode("modal: "));
    tree.append(modal);
  }
  document.getElementById("navigation").replaceChildren(el("div", { className: "meta", text: `version ${navigation.version}` }), tree);
  const keys = [];
  for (const entry of navigation.stack) shownKeys(entry, keys);
  if (navigation.modal) shownKeys(navigation.modal, keys);
  // A scene that left the navigation may have left the store too: it is not read until the
  // store, read after this navigation, says it is there (a read would answer 404 meanwhile).
  for (const [key, scene] of inspector.scenes) if (!keys.includes(key)) scene.paused = true;
  inspector.shownKeys = keys;
  syncScenes();
  refreshStore();
}

// Every view model of the session's store is followed, the ones on the navigation marked as
// shown: a scene used by its key alone (an input sent to it) lives in the store too.
// Reads may overlap; only the answer to the latest one is used.
async function refreshStore() {
  const id = inspector.session;
  if (!id) return;
  const read = ++inspector.storeReads;
  const answer = await api("GET", `/sessions/${encodeURIComponent(id)}`);
  if (answer.status !== 200 || inspector.session !== id || read !== inspector.storeReads) return;
  inspector.storeKeys = (answer.json.entries || []).map((entry) => entry.key);
  syncScenes(true);
}

// Follows the shown scenes and, once the store has been read (`storeRead`), the others it holds;
// drops the rest.
function syncScenes(storeRead = false) {
  const keys = [...new Set([...inspector.shownKeys, ...inspector.storeKeys])];
  for (const key of keys) if (!inspector.scenes.has(key)) followScene(key);
  for (const [key, scene] of inspector.scenes) {
    if (inspector.shownKeys.includes(key) || (storeRead && inspector.storeKeys.includes(key))) {
      scene.paused = false;
      markShown(key, scene);
    } else if (storeRead || !inspector.storeKeys.includes(key)) {
      scene.box.remove();
      inspector.scenes.delete(key);
    }
  }
}

function markShown(key, scene) {
  const shown = inspector.shownKeys.includes(key);
  scene.box.setAttribute("data-shown", shown ? "true" : "false");
  scene.box.classList.toggle("unshown", !shown);
  const label = scene.box.querySelector(".shown-label");
  if (label) label.textContent = shown ? "shown" : "in the store, not shown";
}

// A scene: lifecycle, version, input and output, the members changed at the last version marked.
// A browser opens six connections to a server at most, so the page keeps two streams (the
// navigation and the events) and reads the scenes' documents when an event comes, and twice a
// second for changes that make no event (an input).
function followScene(key) {
  const box = el("div", { className: "scene", attributes: { "data-key": key } });
  document.getElementById("scenes").append(box);
  const scene = { box, previous: null, state: null, snapshot: null, marks: null, reading: false, paused: false };
  inspector.scenes.set(key, scene);
  readScene(key, scene);
}

async function readScene(key, scene) {
  if (scene.reading || scene.paused || inspector.scenes.get(key) !== scene) return;
  scene.reading = true;
  try {
    const base = `/sessions/${encodeURIComponent(inspector.session)}/scenes/${keyPath(key)}`;
    const answer = await api("GET", base);
    if (answer.status !== 200 || inspector.scenes.get(key) !== scene) return;
    if (scene.state && scene.state.version === answer.json.version) return;
    scene.previous = scene.state;
    scene.state = answer.json;
    const description = inspector.catalogue.get(scene.state.scene);
    if (description && description.snapshot) await readSnapshot(base, scene);
    renderScene(key);
  } finally {
    scene.reading = false;
  }
}

function readScenes() {
  for (const [key, scene] of inspector.scenes) readScene(key, scene);
}

function memberRows(part, now, before) {
  return Object.keys(now || {}).sort().map((name) => {
    const row = el("tr", { attributes: { "data-member": `${part}.${name}` } },
      el("td", { text: `${part}.${name}` }), el("td", { text: text(now[name]) }));
    if (before && JSON.stringify(before[name]) !== JSON.stringify(now[name])) row.classList.add("changed");
    return row;
  });
}

function renderScene(key) {
  const scene = inspector.scenes.get(key);
  const state = scene.state;
  const before = scene.previous;
  const description = inspector.catalogue.get(state.scene) || { input: [], actions: [], actionArguments: {}, snapshot: false };
  const table = el("table", { className: "members" },
    ...memberRows("input", state.input, before && before.input),
    ...memberRows("output", state.output, before && before.output));
  const parts = [
    el("h4", { text: key }, el("small", { className: "shown-label" })),
    el("div", { className: "meta", text: `${state.scene} · ${state.lifecycle} · version ${state.version}` }),
  ];
  if (state.error) parts.push(el("div", { className: "error", text: text(state.error) }));
  parts.push(table, inputForm(key, description, state), ...actionForms(key, description));
  if (description.snapshot && scene.snapshot) {
    scene.snapshotBox = el("div", { className: "snapshot" });
    parts.push(scene.snapshotBox);
  }
  scene.box.replaceChildren(...parts);
  markShown(key, scene);
  if (scene.snapshotBox) renderSnapshot(key);
}

// The schemas of the app's contract (GET /openapi.json), by component name: the forms give
// each member a field of its type.
function component(link) {
  if (!link) return null;
  return resolve({ $ref: link.slice(link.indexOf("#")) });
}

function resolve(schema) {
  while (schema && schema.$ref) schema = inspector.schemas[schema.$ref.split("/").pop()];
  return schema || null;
}

// The members of an object schema, those of its choices (anyOf, oneOf) merged.
function members(schema) {
  schema = resolve(schema);
  if (!schema) return {};
  const found = Object.assign({}, schema.properties || {});
  for (const choice of [...(schema.anyOf || []), ...(schema.oneOf || [])]) Object.assign(found, members(choice));
  return found;
}

function types(schema) {
  const type = schema && schema.type;
  return Array.isArray(type) ? type : type ? [type] : [];
}

// A field for a value of `schema`: a choice for an enumeration or a boolean, a number field for
// a number, text otherwise (JSON for arrays and objects).
function field(name, schema, value) {
  schema = resolve(schema) || {};
  const choices = schema.enum ? schema.enum.map(String) : types(schema).includes("boolean") ? ["true", "false"] : null;
  if (choices) {
    const select = el("select", { attributes: { name, "data-input": name } },
      el("option", { text: "", attributes: { value: "" } }), ...choices.map((choice) => el("option", { text: choice, attributes: { value: choice } })));
    select.value = value === undefined ? "" : String(value);
    return select;
  }
  const numeric = types(schema).some((type) => type === "integer" || type === "number") && !types(schema).includes("string");
  const input = el("input", { attributes: { name, "data-input": name, placeholder: types(schema).join(" or ") || "JSON" } });
  if (numeric) {
    input.type = "number";
    input.step = types(schema).includes("integer") ? "1" : "any";
  }
  if (value !== undefined) input.value = text(value);
  return input;
}

// The value of a field as its schema's type.
function fieldValue(raw, schema, current) {
  schema = resolve(schema);
  if (!schema) return typeof current === "string" ? raw : parseValue(raw);
  if (schema.enum) return schema.enum.find((choice) => String(choice) === raw) ?? raw;
  const kinds = types(schema);
  if (kinds.includes("boolean")) return raw === "true";
  if (kinds.includes("string")) return raw;
  if (kinds.includes("integer") || kinds.includes("number")) return Number(raw);
  return parseValue(raw);
}

function inputForm(key, description, state) {
  const form = el("form", { className: "input" });
  if (!description.input.length) return form;
  const schemas = members(component(description.contract && description.contract.input));
  for (const member of description.input) {
    form.append(el("label", { text: `${member} ` }, field(member, schemas[member], state.input[member])));
  }
  form.append(el("button", { text: "Send input", attributes: { type: "submit" } }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {};
    for (const member of description.input) {
      const value = form.elements[member].value;
      const current = inspector.scenes.get(key).state.input[member];
      if (value === text(current) || (value === "" && schemas[member] && (resolve(schemas[member]).enum || types(resolve(schemas[member])).includes("boolean")))) continue;
      body[member] = fieldValue(value, schemas[member], current);
    }
    await send(`/scenes/${keyPath(key)}/input`, body);
  });
  return form;
}

function parseValue(value) {
  try { return JSON.parse(value); } catch (error) { return value; }
}

function actionForms(key, description) {
  return description.actions.map((action) => {
    const form = el("form", { className: "action", attributes: { "data-action": action } });
    const schemas = members(component(description.contract && description.contract.actions[action]));
    const names = Object.keys(schemas).length ? Object.keys(schemas) : (description.actionArguments[action] || []).map((argument) => argument.name);
    const declared = Object.fromEntries((description.actionArguments[action] || []).map((argument) => [argument.name, { type: argument.type, enum: argument.values }]));
    for (const name of names) form.append(el("label", { text: `${name} ` }, field(name, schemas[name] || declared[name])));
    form.append(el("button", { text: action, attributes: { type: "submit" } }));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = {};
      for (const name of names) {
        const value = form.elements[name].value;
        if (value !== "") body[name] = fieldValue(value, schemas[name] || declared[name]);
      }
      await send(`/scenes/${keyPath(key)}/actions/${encodeURIComponent(action)}`, body);
    });
    return form;
  });
}

async function send(path, body) {
  const answer = await api("POST", `/sessions/${encodeURIComponent(inspector.session)}${path}`, body);
  if (answer.status >= 400) report("Refused", document.createTextNode(problemText(answer)));
  refreshJournal();
  return answer;
}

// A snapshot: sections and cells, the last difference marked (inserted, moved, changed; deleted
// ids listed): the changes since the version shown, then the whole snapshot.
async function readSnapshot(base, scene) {
  if (scene.snapshot) {
    const changes = await api("GET", `${base}/snapshot?since=${scene.snapshot.version}`);
    scene.marks = changes.status === 200 && changes.json.kind === "changes" ? changes.json.changes : null;
  }
  const whole = await api("GET", `${base}/snapshot`);
  if (whole.status === 200) scene.snapshot = whole.json;
}

function renderSnapshot(key) {
  const scene = inspector.scenes.get(key);
  const marks = scene.marks || { items: { inserted: [], deleted: [], moved: [], changed: [] } };
  const ids = (list) => new Set(list.map((entry) => entry.id));
  const inserted = ids(marks.items.inserted);
  const changed = ids(marks.items.changed);
  const moved = ids(marks.items.moved);
  const description = inspector.catalogue.get(scene.state.scene) || { actions: [], actionArguments: {} };
  const cellActions = description.actions.filter((action) =>
    (description.actionArguments[action] || []).some((argument) => argument.name === "id"));
  const parts = [el("div", { className: "meta", text: `snapshot version ${scene.snapshot.version}` })];
  for (const section of scene.snapshot.sections) {
    const box = el("div", { className: "section" }, el("strong", { text: section.id }));
    for (const item of section.items) {
      const { id, cell, ...rest } = item;
      const row = el("div", { className: "cell", attributes: { "data-item": id } },
        el("code", { text: `${cell} ${id} ` }), document.createTextNode(text(rest)));
      if (inserted.has(id)) row.classList.add("inserted");
      if (changed.has(id)) row.classList.add("changed");
      if (moved.has(id)) row.classList.add("moved");
      for (const action of cellActions) {
        const button = el("button", { text: action, attributes: { type: "button" } });
        button.addEventListener("click", () => send(`/scenes/${keyPath(key)}/actions/${encodeURIComponent(action)}`, { id }));
        row.append(button);
      }
      box.append(row);
    }
    parts.push(box);
  }
  if (marks.items.deleted.length) {
    parts.push(el("div", { className: "deleted-list", text: `deleted: ${marks.items.deleted.map((entry) => entry.id).join(", ")}` }));
  }
  scene.snapshotBox.replaceChildren(...parts);
}

// The event feed and the journal.
function showEvents(batch) {
  for (const event of batch.events) inspector.events.set(event.seq, event);
  const latest = [...inspector.events.values()].sort((a, b) => a.seq - b.seq).slice(-100);
  document.getElementById("events").replaceChildren(...latest.map((event) =>
    el("li", { text: `#${event.seq} ${event.type} ${event.key || ""}${event.slot ? " slot " + event.slot : ""} ${event.changes ? text(event.changes) : ""}` })));
}

async function refreshJournal() {
  if (!inspector.session) return;
  const answer = await api("GET", `/sessions/${encodeURIComponent(inspector.session)}/journal`);
  if (answer.status !== 200) return;
  document.getElementById("journal").replaceChildren(...answer.json.entries.slice(-100).map((entry) =>
    el("li", { text: `#${entry.seq} ${entry.method} ${entry.path} → ${entry.status}` })));
}

// Tools: back, recreate, replay.
async function back() {
  await send("/navigation/back");
}

async function recreate() {
  const answer = await api("POST", `/sessions/${encodeURIComponent(inspector.session)}/recreate`);
  if (answer.status !== 200) return report("Recreate refused", document.createTextNode(problemText(answer)));
  const lines = answer.json.scenes.map((scene) => `${scene.key}: ${scene.lost.length ? "lost " + scene.lost.join(", ") : "nothing lost"}`);
  select(inspector.session);
  report("Recreated", document.createTextNode(lines.join("\n")));
}

async function replay() {
  const journal = await api("GET", `/sessions/${encodeURIComponent(inspector.session)}/journal`);
  if (journal.status !== 200) return report("Replay refused", document.createTextNode(problemText(journal)));
  await replayJournal(journal.raw);
}

// A journal chosen as a file is read into the text box, where it can still be edited.
function importFile() {
  const file = document.getElementById("import-file").files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.addEventListener("load", () => { document.getElementById("import-text").value = String(reader.result); });
  reader.readAsText(file);
}

async function replayImported() {
  const raw = document.getElementById("import-text").value;
  if (!raw.trim()) return report("Nothing to replay", document.createTextNode("Choose or paste a journal first."));
  await replayJournal(raw);
}

// Replays a journal on a new session and shows the outcome; a divergence shows the recorded
// answer and the replayed one side by side.
async function replayJournal(raw) {
  const answer = await api("POST", "/replays", raw);
  if (answer.status !== 201) return report("Replay refused", document.createTextNode(problemText(answer)));
  const result = answer.json;
  const link = el("button", { text: `open ${result.session}`, attributes: { type: "button", "data-open": result.session } });
  link.addEventListener("click", () => select(result.session));
  if (!result.divergence) {
    return report("Replayed", el("span", { text: `${result.steps} steps, no divergence ` }, link));
  }
  const divergence = result.divergence;
  const side = (title, outcome) => el("div", { className: "side" }, el("strong", { text: `${title}: ${outcome.status}` }),
    el("pre", { text: JSON.stringify(outcome.answer, null, 2) }));
  report(`Diverged at entry #${divergence.seq}: ${divergence.members.join(", ")}`, el("div", {},
    el("div", { className: "divergence" }, side("recorded", divergence.expected), side("replayed", divergence.actual)),
    link));
}

async function start() {
  const contract = await api("GET", "/openapi.json");
  inspector.schemas = (contract.json && contract.json.components && contract.json.components.schemas) || {};
  const catalogue = await api("GET", "/scenes");
  for (const scene of (catalogue.json && catalogue.json.scenes) || []) inspector.catalogue.set(scene.name, scene);
  for (const button of document.querySelectorAll("[data-advance]")) {
    button.addEventListener("click", () => advance(Number(button.getAttribute("data-advance"))));
  }
  document.getElementById("back").addEventListener("click", back);
  document.getElementById("recreate").addEventListener("click", recreate);
  document.getElementById("replay").addEventListener("click", replay);
  document.getElementById("import-file").addEventListener("change", importFile);
  document.getElementById("import-replay").addEventListener("click", replayImported);
  await refreshSessions();
  await refreshClock();
  setInterval(refreshSessions, 1000);
  setInterval(refreshClock, 1000);
  setInterval(readScenes, 500);
  setInterval(refreshStore, 1000);
  // A refusal makes no event, but the journal records it.
  setInterval(refreshJournal, 500);
  const wanted = new URLSearchParams(location.search).get("session");
  if (wanted) select(wanted);
}

start();
