// SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"use strict";
const data = JSON.parse(document.getElementById("report-data").textContent);
const SVG = "http://www.w3.org/2000/svg";
const COLOURS = { ssdp: "#0969da", http: "#1b7c83", soap: "#8250df", gena: "#bf3989" };
const KIND_COLOURS = { answer: "#1a7f37", alive: "#6e7781", update: "#9a6700", byebye: "#cf222e",
  unparseable: "#cf222e" };
const ROWS_PER_PAGE = 400, MAX_DEVICE_LANES = 30, ROW = 24, TOP = 10, HEAD = 56, LANE_GAP = 170, LEFT = 200;

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}
const seconds = (t) => (t < 0 ? "-" : "") + Math.abs(t).toFixed(3);
const milliseconds = (t) => Math.round(t * 1000) + " ms";
const cut = (text, length) => (text.length > length ? text.slice(0, length - 1) + "…" : text);

// MARK: the page

const views = new Map();
function render() {
  const root = document.getElementById("report");
  root.textContent = "";
  const only = el("input", { type: "checkbox", id: "only-failed", onchange: () => applyFilter() });
  root.append(el("div", { class: "toolbar" },
    el("label", {}, only, " show only failed runs"),
    el("button", { onclick: () => openAll(true) }, "open all"),
    el("button", { onclick: () => openAll(false) }, "close all")));
  for (const run of data.runs) root.append(runSection(run));
  window.addEventListener("hashchange", followFragment);
  followFragment();
}
function applyFilter() {
  const only = document.getElementById("only-failed").checked;
  for (const section of document.querySelectorAll("section.run"))
    section.hidden = only && section.dataset.status !== "failed";
}
function openAll(open) {
  for (const details of document.querySelectorAll("section.run > details")) details.open = open;
}
function followFragment() {
  const fragment = decodeURIComponent(location.hash.slice(1));
  if (fragment === "failed") {
    document.getElementById("only-failed").checked = true;
    applyFilter();
    const first = document.querySelector('section.run[data-status="failed"]');
    if (first) { first.querySelector("details").open = true; first.scrollIntoView(); }
    return;
  }
  const fields = new Map(fragment.split("&").map((part) => {
    const at = part.indexOf("=");
    return at < 0 ? [part, ""] : [part.slice(0, at), part.slice(at + 1)];
  }));
  if (!fields.has("scenario")) return;
  const name = fields.get("scenario");
  const run = data.runs.find((run) => run.id === name) || data.runs.find((run) => run.name === name);
  if (!run) return;
  const section = document.getElementById("run-" + run.id);
  section.hidden = false;
  section.querySelector("details").open = true;
  if (fields.has("message")) diagram(run).select(fields.get("message"), true);
  else section.scrollIntoView();
}

function runSection(run) {
  const details = el("details", { open: run.status === "failed" });
  const section = el("section", { class: "run " + run.status, id: "run-" + run.id, "data-status": run.status },
    details);
  details.append(el("summary", {},
    el("span", { class: "badge " + run.status }, run.status), el("strong", {}, run.name),
    el("span", { class: "muted" }, "  seed " + run.seed + " · " + run.mode + " · " + seconds(run.duration) +
      " s · " + run.messages.length + " messages")));
  const body = el("div", { class: "body" });
  details.append(body);
  body.append(el("p", {}, run.description));
  if (run.note) body.append(el("p", { class: "limit" }, run.note));
  for (const note of run.notes) body.append(el("p", { class: "muted note" }, note));
  if (run.status === "failed" && run.reproduce)
    body.append(el("p", {}, "Reproduce: ", el("code", { class: "reproduce" }, run.reproduce)));
  if (run.checks.length) body.append(checksTable(run));
  body.append(el("div", { class: "diagram-holder", id: "diagram-" + run.id }));
  details.addEventListener("toggle", () => { if (details.open) diagram(run); });
  if (details.open) queueMicrotask(() => diagram(run));
  return section;
}

// A run's diagram, drawn the first time it is wanted.
function diagram(run) {
  if (!views.has(run.id)) views.set(run.id, new Diagram(run, document.getElementById("diagram-" + run.id)));
  return views.get(run.id);
}

function checksTable(run) {
  const order = { failed: 0, skipped: 1, passed: 2 };
  const checks = run.checks.map((check, index) => [check, index])
    .sort((a, b) => order[a[0].status] - order[b[0].status] || a[1] - b[1]).map((pair) => pair[0]);
  const table = el("table", { class: "checks" },
    el("tr", {}, el("th", {}, ""), el("th", {}, "check"), el("th", {}, "expected"), el("th", {}, "got"),
      el("th", {}, "evidence")));
  for (const check of checks) {
    const links = check.evidence.slice(0, 12).map((id) => el("button", {
      class: "link evidence-link", "data-target": id,
      onclick: () => diagram(run).select(id, true, check) }, describe(run, id)));
    if (check.evidence.length > 12) links.push(" and " + (check.evidence.length - 12) + " more");
    table.append(el("tr", { class: check.status, "data-check": check.name },
      el("td", { class: "badge " + check.status }, check.status === "passed" ? "pass" :
        check.status === "failed" ? "FAIL" : "skip"),
      el("td", {}, check.name), el("td", {}, check.expected), el("td", {}, check.actual),
      el("td", {}, links)));
  }
  return table;
}
function describe(run, id) {
  const item = findItem(run, id);
  if (!item) return id;
  return item.mark ? item.mark.kind + " at " + seconds(item.mark.t) + " s"
    : item.message.kind + " at " + seconds(item.message.t) + " s";
}
function findItem(run, id) {
  if (id.startsWith("k")) {
    const mark = run.marks.find((mark) => mark.id === id);
    return mark ? { mark } : null;
  }
  const message = run.messages.find((message) => message.id === id);
  return message ? { message } : null;
}

// MARK: the sequence diagram of one run

class Diagram {
  constructor(run, holder) {
    this.run = run;
    this.holder = holder;
    this.page = 0;
    this.selected = null;
    this.evidence = new Set();
    this.filters = { device: "all", protocols: new Set(["ssdp", "http", "soap", "gena"]), kind: "all",
      fate: "all", text: "" };
    this.collapse = run.messages.length > ROWS_PER_PAGE;
    this.byID = new Map(run.messages.map((message) => [message.id, message]));
    this.build();
    this.draw();
  }

  build() {
    const run = this.run;
    const filters = el("div", { class: "filters" });
    const device = el("select", { "aria-label": "device", onchange: (event) => {
      this.filters.device = event.target.value; this.page = 0; this.draw(); } },
      el("option", { value: "all" }, "all devices"));
    run.lanes.forEach((lane, index) => {
      if (lane.role === "device") device.append(el("option", { value: String(index) },
        lane.name + " (" + lane.address + ")"));
    });
    filters.append(device);
    for (const protocol of ["ssdp", "http", "soap", "gena"]) {
      if (!run.messages.some((message) => message.proto === protocol)) continue;
      filters.append(el("label", { style: "color:" + COLOURS[protocol] },
        el("input", { type: "checkbox", checked: true, "data-protocol": protocol, onchange: (event) => {
          if (event.target.checked) this.filters.protocols.add(protocol);
          else this.filters.protocols.delete(protocol);
          this.page = 0; this.draw(); } }), protocol.toUpperCase()));
    }
    const kinds = [...new Set(run.messages.map((message) => message.kind))];
    filters.append(el("select", { "aria-label": "kind", onchange: (event) => {
      this.filters.kind = event.target.value; this.page = 0; this.draw(); } },
      el("option", { value: "all" }, "every kind"), kinds.map((kind) => el("option", { value: kind }, kind))));
    filters.append(el("select", { "aria-label": "fate", onchange: (event) => {
      this.filters.fate = event.target.value; this.page = 0; this.draw(); } },
      ["all", "lost", "partly lost", "duplicated", "delayed", "dropped by the client", "reported"].map(
        (fate) => el("option", { value: fate }, fate === "all" ? "any fate" : fate))));
    filters.append(el("input", { type: "search", placeholder: "search the messages", "aria-label": "search",
      oninput: (event) => { this.filters.text = event.target.value.toLowerCase(); this.page = 0; this.draw(); } }));
    filters.append(el("label", {}, el("input", { type: "checkbox", checked: this.collapse,
      onchange: (event) => { this.collapse = event.target.checked; this.page = 0; this.draw(); } }),
      " collapse repeats"));
    this.pager = el("span", { class: "pager" });
    filters.append(this.pager);
    filters.append(el("button", { onclick: () => this.toggleMermaid() }, "Mermaid"));
    this.holder.append(filters);
    if (run.messagesLeftOut) this.holder.append(el("p", { class: "limit" }, "The report keeps the first " +
      run.messages.length + " messages of this run; " + run.messagesLeftOut + " more are in the trace (--trace)."));
    if (run.noTrace) this.holder.append(el("p", { class: "muted" }, run.noTrace));
    this.laneNote = el("p", { class: "limit" });
    this.holder.append(this.laneNote);
    this.canvas = el("div", { class: "diagram" });
    this.holder.append(this.canvas);
    this.mermaid = el("textarea", { class: "mermaid", readonly: true, hidden: true, "aria-label": "Mermaid" });
    this.holder.append(this.mermaid);
    this.detail = el("div", { class: "detail", hidden: true });
    this.holder.append(this.detail);
  }

  // Every filter back to showing everything, the controls too.
  resetFilters() {
    this.filters = { device: "all", protocols: new Set(["ssdp", "http", "soap", "gena"]), kind: "all",
      fate: "all", text: "" };
    this.collapse = false;
    for (const control of this.holder.querySelectorAll(".filters select")) control.value = "all";
    for (const control of this.holder.querySelectorAll(".filters input[type=checkbox]"))
      control.checked = control.dataset.protocol !== undefined;
    for (const control of this.holder.querySelectorAll(".filters input[type=search]")) control.value = "";
  }

  visibleMessages() {
    const f = this.filters;
    return this.run.messages.filter((message) => {
      if (!f.protocols.has(message.proto)) return false;
      if (f.kind !== "all" && message.kind !== f.kind) return false;
      if (f.device !== "all") {
        const lane = Number(f.device);
        if (message.from !== lane && message.to !== lane && !message.copies.some((copy) => copy.to === lane))
          return false;
      }
      if (f.fate !== "all") {
        if (f.fate === "dropped by the client") { if (!(message.verdict || "").includes("dropped")) return false; }
        else if (f.fate === "reported") { if (!(message.verdict || "").includes("reported")) return false; }
        else if (message.outcome !== f.fate) return false;
      }
      if (f.text) {
        const haystack = (message.label + "\n" + message.raw + "\n" + message.fate + "\n" +
          (message.verdict || "")).toLowerCase();
        if (!haystack.includes(f.text)) return false;
      }
      return true;
    });
  }

  // The rows: each message where it was sent, a late copy again where it arrived, each mark.
  rows(messages) {
    const events = [];
    let order = 0;
    for (const message of messages) {
      events.push({ t: message.t, order: order++, type: "send", message, count: 1 });
      for (const copy of message.copies) {
        if (copy.at != null && copy.at - message.t >= 0.0005)
          events.push({ t: copy.at, order: order++, type: "arrive", message, copy });
      }
    }
    const marksShown = this.filters.device === "all" && this.filters.kind === "all" && this.filters.fate === "all" &&
      !this.filters.text;
    if (marksShown) for (const mark of this.run.marks) events.push({ t: mark.t, order: order++, type: "mark", mark });
    events.sort((a, b) => a.t - b.t || a.order - b.order);
    if (!this.collapse) return events;
    const rows = [];
    for (const event of events) {
      const last = rows[rows.length - 1];
      if (last && event.type === "send" && last.type === "send" && last.message.from === event.message.from &&
        last.message.kind === event.message.kind && Math.abs(last.t - event.t) < 0.001 &&
        event.message.copies.length === 0 && last.message.copies.length === 0) {
        last.count += 1;
        last.members.push(event.message);
        continue;
      }
      if (event.type === "send") event.members = [event.message];
      rows.push(event);
    }
    return rows;
  }

  lanesFor(rows) {
    const used = new Set([0]);
    for (const row of rows) {
      if (!row.message) continue;
      used.add(row.message.from); used.add(row.message.to);
      for (const copy of row.message.copies) used.add(copy.to);
    }
    const lanes = [];
    let devices = 0, hidden = 0;
    this.run.lanes.forEach((lane, index) => {
      if (!used.has(index)) return;
      if (lane.role === "device" && devices >= MAX_DEVICE_LANES) { hidden += 1; return; }
      if (lane.role === "device") devices += 1;
      lanes.push(index);
    });
    const column = new Map(lanes.map((lane, position) => [lane, position]));
    if (hidden) column.others = lanes.length;
    return { lanes, column, hidden };
  }

  draw() {
    const all = this.rows(this.visibleMessages());
    const pages = Math.max(1, Math.ceil(all.length / ROWS_PER_PAGE));
    this.page = Math.min(this.page, pages - 1);
    const rows = all.slice(this.page * ROWS_PER_PAGE, (this.page + 1) * ROWS_PER_PAGE);
    this.drawnRows = rows;
    this.pager.textContent = "";
    if (pages > 1) {
      this.pager.append(el("button", { disabled: this.page === 0, onclick: () => { this.page -= 1; this.draw(); } },
        "◀"), " rows " + (this.page * ROWS_PER_PAGE + 1) + "–" + (this.page * ROWS_PER_PAGE + rows.length) +
        " of " + all.length + " ", el("button", { disabled: this.page === pages - 1,
        onclick: () => { this.page += 1; this.draw(); } }, "▶"));
    } else this.pager.append(all.length + " rows");
    const { lanes, column, hidden } = this.lanesFor(rows);
    this.laneNote.textContent = hidden ? "Lifelines are drawn for " + MAX_DEVICE_LANES +
      " devices; " + hidden + " more share the last one (\"other devices\"): choose a device above to see its own."
      : "";
    this.laneNote.hidden = !hidden;
    const columns = lanes.length + (hidden ? 1 : 0);
    const width = LEFT + Math.max(1, columns) * LANE_GAP + 260;
    const height = TOP + rows.length * ROW + 30;
    const head = svg("svg", { width, height: HEAD, viewBox: "0 0 " + width + " " + HEAD, class: "lanes" });
    const picture = svg("svg", { width, height, viewBox: "0 0 " + width + " " + height, role: "img",
      "aria-label": "sequence diagram of " + this.run.name });
    picture.append(defs());
    const x = (lane) => LEFT + (column.has(lane) ? column.get(lane) : (column.others ?? 0)) * LANE_GAP;
    const rowOf = new Map();
    rows.forEach((row, index) => { if (row.type === "send") for (const m of row.members || [row.message]) rowOf.set(m.id, index); });
    const y = (index) => TOP + index * ROW + ROW / 2;
    this.drawBands(picture, rows, y, width);
    // Lifelines and their names.
    const heads = lanes.map((lane) => [lane, this.run.lanes[lane]]);
    if (hidden) heads.push([null, { name: "other devices", detail: hidden + " devices", address: "", role: "device" }]);
    heads.forEach(([, info], position) => {
      const cx = LEFT + position * LANE_GAP;
      picture.append(svg("line", { x1: cx, y1: 0, x2: cx, y2: height - 10, stroke: "#8c959f",
        "stroke-dasharray": "4 3", class: "lifeline" }));
      head.append(svg("text", { x: cx, y: 18, "text-anchor": "middle", class: "lane-name" },
        cut(info.name, 26)));
      head.append(svg("text", { x: cx, y: 33, "text-anchor": "middle", class: "lane-detail", fill: "#656d76" },
        cut(info.detail, 30)));
      head.append(svg("text", { x: cx, y: 47, "text-anchor": "middle", class: "lane-address", fill: "#656d76",
        "font-size": 10 }, cut(info.address, 34)));
    });
    rows.forEach((row, index) => {
      picture.append(svg("text", { x: 6, y: y(index) + 4, fill: "#656d76", class: "time" }, seconds(row.t)));
      if (row.type === "mark") this.drawMark(picture, row.mark, x(0), y(index));
      else if (row.type === "send") this.drawSend(picture, row, x, y(index), rowOf, y);
    });
    this.canvas.textContent = "";
    this.canvas.append(el("div", { class: "head" }, head), picture);
    this.highlight();
    if (!this.mermaid.hidden) this.mermaid.value = this.mermaidText();
  }

  drawBands(picture, rows, y, width) {
    if (!rows.length) return;
    const first = rows[0].t, last = rows[rows.length - 1].t;
    const rowAt = (t) => { const index = rows.findIndex((row) => row.t >= t - 1e-9); return index < 0 ? rows.length : index; };
    for (const band of this.run.bands) {
      if (band.to < first || band.from > last + 1e-9) continue;
      const top = y(rowAt(band.from)) - ROW / 2;
      if (band.kind === "stop") {
        picture.append(svg("line", { x1: 0, x2: width, y1: top, y2: top, stroke: "#cf222e",
          "stroke-dasharray": "6 4", class: "band stop" }));
        picture.append(svg("text", { x: width - 6, y: top - 3, "text-anchor": "end", fill: "#cf222e" },
          band.label + " " + seconds(band.from) + " s"));
        continue;
      }
      const bottom = y(rowAt(band.to + 1e-9)) - ROW / 2;
      picture.append(svg("rect", { x: 0, y: top, width, height: Math.max(2, bottom - top), fill: "#ddf4ff",
        "fill-opacity": 0.45, class: "band mx" }));
      picture.append(svg("text", { x: width - 6, y: top + 12, "text-anchor": "end", fill: "#0969da" },
        band.label + " window"));
    }
  }

  drawMark(picture, mark, cx, cy) {
    const colour = mark.kind === "found" ? "#1a7f37" : "#cf222e";
    const group = svg("g", { class: "mark msg " + mark.kind, "data-id": mark.id });
    group.append(svg("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, fill: colour,
      transform: "rotate(45 " + cx + " " + cy + ")" }));
    group.append(svg("line", { x1: cx - 8, x2: cx + 8, y1: cy, y2: cy, class: "hit", stroke: "transparent",
      "stroke-width": 14 }));
    group.append(svg("text", { x: cx + 12, y: cy + 4, fill: colour }, cut(mark.text, 110)));
    group.addEventListener("click", () => this.select(mark.id, false));
    picture.append(group);
  }

  drawSend(picture, row, x, cy, rowOf, y) {
    const message = row.message;
    const colour = message.proto === "ssdp" ? (KIND_COLOURS[message.kind] || COLOURS.ssdp) : COLOURS[message.proto];
    const group = svg("g", { class: "msg proto-" + message.proto + " kind-" + message.kind.replace(/[^A-Za-z-]/g, ""),
      "data-id": message.id, "data-outcome": message.outcome });
    const dash = message.kind === "alive" || message.kind === "byebye" || message.kind === "update" ? "5 3" : null;
    const from = x(message.from);
    const targets = message.copies.length ? message.copies : [{ to: message.to, at: message.t }];
    let labelX = null;
    const seen = new Map();
    for (const copy of targets) {
      const to = x(copy.to);
      const repeat = seen.get(to) || 0;
      seen.set(to, repeat + 1);
      if (copy.at == null) {
        const end = from + (to - from) * 0.6;
        group.append(svg("line", { x1: from, y1: cy, x2: end, y2: cy, stroke: colour, class: "line lost",
          "stroke-width": 1.5, "stroke-dasharray": dash }));
        group.append(svg("path", { d: "M" + (end - 5) + " " + (cy - 5) + "l10 10m0 -10l-10 10", stroke: "#cf222e",
          "stroke-width": 2.5, class: "cross" }));
        continue;
      }
      const late = copy.at - message.t >= 0.0005;
      let endY = cy;
      if (late) {
        const arrivalRow = this.drawnRows.findIndex((r) => r.type === "arrive" && r.message === message && r.copy === copy);
        endY = arrivalRow >= 0 ? y(arrivalRow) : y(this.drawnRows.length - 1) + ROW / 2;
      }
      const offset = repeat * 4;
      group.append(svg("line", { x1: from, y1: cy + offset, x2: to, y2: endY + offset, stroke: colour,
        "stroke-width": 1.5, class: "line" + (repeat ? " duplicate" : "") + (late ? " late" : ""),
        "marker-end": "url(#arrow)", "stroke-dasharray": dash }));
      if (late) group.append(svg("text", { x: (from + to) / 2 + 4, y: (cy + endY) / 2 + 12, fill: "#9a6700",
        class: "delay" }, "+" + milliseconds(copy.at - message.t)));
      if (labelX === null || Math.abs(to - from) > Math.abs(labelX.to - from)) labelX = { to };
    }
    const to = labelX ? labelX.to : x(message.to);
    group.append(svg("line", { x1: from, y1: cy, x2: to === from ? from + 40 : to, y2: cy, class: "hit",
      stroke: "transparent", "stroke-width": 14 }));
    const count = row.count > 1 ? " ×" + row.count : "";
    const text = cut(message.label, 64) + count;
    const left = Math.min(from, to) + 6;
    group.append(svg("text", { x: to === from ? from + 44 : left, y: cy - 4, fill: colour, class: "label" }, text));
    if (message.verdict && message.to === 0) {
      const dropped = message.verdict.includes("dropped");
      group.append(svg("text", { x: x(0) - 8, y: cy + 4, "text-anchor": "end", class: "verdict",
        fill: dropped ? "#656d76" : "#1a7f37", "font-style": dropped ? "italic" : "normal" },
        dropped ? cut(message.verdict, 30) : "✓"));
    }
    group.addEventListener("click", () => this.select(message.id, false));
    picture.append(group);
  }

  highlight() {
    for (const node of this.canvas.querySelectorAll(".msg")) {
      node.classList.toggle("selected", node.dataset.id === this.selected);
      node.classList.toggle("evidence", this.evidence.has(node.dataset.id));
    }
  }

  // Selects a message or mark: shows its details; from a check's link, finds its page and scrolls to it.
  // `check`: the check whose evidence link was clicked, whose messages are all highlighted.
  select(id, reveal, check) {
    const item = findItem(this.run, id);
    if (!item) return;
    this.selected = id;
    if (reveal) {
      this.evidence = new Set(check ? check.evidence : [id]);
      const drawn = (row) => (row.members || []).some((m) => m.id === id) || (row.mark && row.mark.id === id) ||
        (row.type === "send" && row.message.id === id);
      let rows = this.rows(this.visibleMessages());
      let index = rows.findIndex(drawn);
      if (index < 0) {
        this.resetFilters();
        rows = this.rows(this.visibleMessages());
        index = rows.findIndex(drawn);
      }
      this.page = Math.max(0, Math.floor(index / ROWS_PER_PAGE));
      this.draw();
    } else this.highlight();
    this.showDetail(item);
    if (reveal) {
      const node = this.canvas.querySelector('.msg[data-id="' + id + '"]');
      if (node) node.scrollIntoView({ block: "center" });
    }
  }

  showDetail(item) {
    const detail = this.detail;
    detail.textContent = "";
    detail.hidden = false;
    const lanes = this.run.lanes;
    const laneText = (index) => lanes[index] ? lanes[index].name + " (" + lanes[index].address + ")" : "?";
    if (item.mark) {
      const mark = item.mark;
      detail.append(el("h3", {}, mark.text));
      detail.append(el("p", {}, "At " + seconds(mark.t) + " s from the start, on the client's lifeline."));
      if (mark.from.length) detail.append(el("p", {}, "From ", mark.from.map((id) =>
        el("button", { class: "link", onclick: () => this.select(id, true) }, describe(this.run, id)))));
      return;
    }
    const message = item.message;
    const index = this.run.messages.indexOf(message);
    const previous = index > 0 ? this.run.messages[index - 1] : null;
    const search = message.answers ? this.byID.get(message.answers) : null;
    detail.append(el("h3", { class: "detail-title" }, message.label));
    const rows = [
      ["message", message.id], ["from", laneText(message.from)], ["to", laneText(message.to)],
      ["protocol", message.proto.toUpperCase() + " · " + message.kind + (message.size ? " · " + message.size + " bytes" : "")],
      ["fate", message.fate + (message.fate === message.outcome ? "" : " (" + message.outcome + ")")],
    ];
    if (message.verdict) rows.push(["the client", message.verdict]);
    rows.push(["sent", seconds(message.t) + " s from the start"]);
    if (search) rows.push(["", seconds(message.t - search.t) + " s after the M-SEARCH it answers (" +
      seconds(search.t) + " s)"]);
    if (previous) rows.push(["", seconds(message.t - previous.t) + " s after the previous message"]);
    for (const copy of message.copies) rows.push(["copy to " + laneText(copy.to),
      copy.at == null ? "lost" : "arrived at " + seconds(copy.at) + " s (+" + milliseconds(copy.at - message.t) + ")"]);
    detail.append(el("table", { class: "facts" }, rows.map(([name, value]) =>
      el("tr", {}, el("td", { class: "muted" }, name), el("td", {}, value)))));
    if (message.headers.length) detail.append(el("table", { class: "headers mono" }, message.headers.map(
      ([name, value]) => el("tr", {}, el("td", {}, name + ":"), el("td", {}, value)))));
    detail.append(el("pre", { class: "raw" }, message.raw));
  }

  toggleMermaid() {
    this.mermaid.hidden = !this.mermaid.hidden;
    if (!this.mermaid.hidden) { this.mermaid.value = this.mermaidText(); this.mermaid.select(); }
  }

  // The diagram as Mermaid text: the rows drawn on this page, at most 300 of them.
  mermaidText() {
    const clean = (text) => text.replace(/[;#\r\n:<>{}]/g, " ").replace(/\s+/g, " ").trim();
    const rows = this.drawnRows.slice(0, 300);
    const lanes = new Set([0]);
    for (const row of rows) if (row.message) { lanes.add(row.message.from); lanes.add(row.message.to); }
    const lines = ["sequenceDiagram"];
    for (const lane of [...lanes].sort((a, b) => a - b))
      lines.push("  participant L" + lane + " as " + clean(this.run.lanes[lane].name + " " + this.run.lanes[lane].address));
    for (const row of rows) {
      if (row.type === "mark") { lines.push("  Note over L0: " + clean(row.mark.text)); continue; }
      if (row.type !== "send") continue;
      const message = row.message;
      const arrow = message.outcome === "lost" ? "-x" : message.kind === "answer" ? "-->>" : "->>";
      lines.push("  L" + message.from + arrow + "L" + message.to + ": " + clean(seconds(message.t) + " " +
        message.label + (row.count > 1 ? " x" + row.count : "") + (message.outcome === "sent" ||
        message.outcome === "delivered" ? "" : " (" + message.outcome + ")")));
    }
    if (this.drawnRows.length > rows.length) lines.push("  Note over L0: " + (this.drawnRows.length - rows.length) +
      " more rows not exported");
    return lines.join("\n") + "\n";
  }
}

function defs() {
  const defs = svg("defs");
  const marker = svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7,
    markerHeight: 7, orient: "auto-start-reverse" });
  marker.append(svg("path", { d: "M0 0L10 5L0 10z", fill: "#57606a" }));
  defs.append(marker);
  return defs;
}

render();
document.body.dataset.ready = "true";
