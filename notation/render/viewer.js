// The record viewer of `notation html`: draws positions and steps through records.
//
// Two parts.  `drawBoard` is a port of notation/render/svg.py, step by step and
// constant by constant, so that a position looks the same here as in
// `notation diagram` (the text is the same for the same view); a change to one
// belongs in the other.  The rest follows notation/stepper.py: a stack of
// levels (the main line, then each variation entered), each with the moves
// played in it; entering a variation replaces the last move by the variation's
// first one, leaving it goes back after the move it replaced.  Positions come
// precomputed with each move, so no rules are needed here.
(function () {
  "use strict";

  // -- drawing: a port of svg.py ---------------------------------------------
  const SVG_NS = "http://www.w3.org/2000/svg";
  const INK = "#2b2622";
  const PAPER = "#fbf8f1";
  const MUTED = "#6f665c";
  const MARK = "#e0a100";
  const LINK = "#efe6d2";
  const FALLBACK = "#b9b2a7";
  const FONT = "DejaVu Sans, Verdana, Arial, sans-serif";
  const BAR_LEFT = 0.1;
  const BAR_WIDTH = 0.64;
  const MAX_BAR = 0.24;
  const MIN_BAR = 0.13;
  const PILE_TOP = 0.07;
  const FOOT = 0.07;
  const NOTE_BAND = 0.2;
  const DEFAULT_SIZE = 480;

  function num(value) {
    const hundredths = Math.floor(value * 100 + 0.5);
    const sign = hundredths < 0 ? "-" : "";
    const abs = Math.abs(hundredths);
    const whole = Math.floor(abs / 100);
    const frac = abs % 100;
    if (!frac) return whole ? sign + whole : "0";
    return (sign + whole + "." + String(frac).padStart(2, "0")).replace(/0+$/, "");
  }

  function escape(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;")
      .replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  function attrs(map) {
    let out = "";
    for (const [name, value] of Object.entries(map)) {
      const text = typeof value === "number" ? num(value) : value;
      out += " " + name + '="' + escape(text) + '"';
    }
    return out;
  }

  function el(name, map, text) {
    if (text === undefined || text === null) return "<" + name + attrs(map) + "/>";
    return "<" + name + attrs(map) + ">" + escape(text) + "</" + name + ">";
  }

  function has(map, key) {
    return Object.prototype.hasOwnProperty.call(map, key);
  }

  function colour(palette, role) {
    return has(palette, role) ? palette[role] : FALLBACK;
  }

  function inkOn(fill) {
    const m = /^#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})/.exec(fill);
    if (!m) return INK;
    const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h, 16));
    return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? INK : "#ffffff";
  }

  // The view says how a cell's tokens stand (BoardView.token_layout, left out of
  // the data when it is the default, "pile").
  function spreadsTokens(view) {
    return view.token_layout === "spread";
  }

  function length(text) {
    return Array.from(text).length; // code points, as Python counts
  }

  function wrap(text, width, font) {
    const perLine = Math.max(8, Math.floor(width / (font * 0.56)));
    const lines = [];
    for (const paragraph of text.split(/\r\n|\r|\n/)) {
      let current = "";
      for (const word of paragraph.split(/[ \t\n\r\f\v]+/).filter(Boolean)) {
        if (current && length(current) + 1 + length(word) > perLine) {
          lines.push(current);
          current = word;
        } else {
          current = current ? current + " " + word : word;
        }
      }
      lines.push(current);
    }
    return lines.filter(Boolean);
  }

  function geometry(view, size) {
    const cells = Math.max(view.files.length, view.ranks.length, 1);
    const cell = size / cells;
    const band = Math.max(18, Math.min(28, cell * 0.4));
    const boardHeight = cell * view.ranks.length;
    // The top left corner of each square by its name (file + rank: a label may have
    // any length); a name that two label pairs spell keeps its first place.
    const corners = new Map();
    view.ranks.slice().reverse().forEach((rank, row) => {
      view.files.forEach((file, col) => {
        const name = file + rank;
        if (!corners.has(name)) corners.set(name, [band + col * cell, band / 2 + row * cell]);
      });
    });
    return {
      cell: cell,
      band: band,
      left: band,
      top: band / 2,
      width: band + cell * view.files.length + band / 2,
      boardHeight: boardHeight,
      textTop: band / 2 + boardHeight + band,
      font: Math.max(12, Math.min(16, size / 32)),
      corners: corners,
    };
  }

  function origin(geo, square) {
    const corner = geo.corners.get(square);
    return corner === undefined ? null : corner;
  }

  function centre(geo, square) {
    const corner = origin(geo, square);
    return corner ? [corner[0] + geo.cell / 2, corner[1] + geo.cell / 2] : null;
  }

  function rows(view) {
    const out = [];
    for (const rank of view.ranks.slice().reverse()) {
      const row = [];
      for (const file of view.files) {
        const square = file + rank;
        const cell = has(view.cells, square) ? view.cells[square] : null;
        row.push(cell
          ? { square: square, role: cell.role, tokens: cell.tokens, note: cell.note }
          : { square: square, role: "off", tokens: [], note: "" });
      }
      out.push(row);
    }
    return out;
  }

  function drawCells(view, geo, out) {
    const stroke = num(Math.max(1, geo.cell * 0.02));
    for (const row of rows(view)) {
      for (const cell of row) {
        const corner = origin(geo, cell.square);
        if (cell.role === "off" || !corner) continue;
        out.push(el("rect", {
          "class": "cell", "data-square": cell.square, "data-role": cell.role,
          "x": corner[0], "y": corner[1], "width": geo.cell, "height": geo.cell,
          "fill": colour(view.palette, cell.role), "stroke": INK,
          "stroke-width": stroke,
        }));
      }
    }
  }

  function drawCoordinates(view, geo, out) {
    const font = geo.band * 0.55;
    const bottom = geo.top + geo.boardHeight;
    view.files.forEach((file, col) => {
      out.push(el("text", {
        "class": "coord", "x": geo.left + (col + 0.5) * geo.cell,
        "y": bottom + geo.band * 0.7, "font-size": font, "text-anchor": "middle",
        "fill": MUTED,
      }, file));
    });
    view.ranks.slice().reverse().forEach((rank, row) => {
      out.push(el("text", {
        "class": "coord", "x": geo.left / 2, "y": geo.top + (row + 0.5) * geo.cell,
        "font-size": font, "text-anchor": "middle", "dominant-baseline": "central",
        "fill": MUTED,
      }, rank));
    });
  }

  function drawLinks(view, geo, out) {
    const p = view.palette;
    const stroke = has(p, "link") ? p.link : has(p, "path") ? p.path : LINK;
    const width = geo.cell * 0.045;
    for (const [a, b] of view.links) {
      const start = centre(geo, a);
      const end = centre(geo, b);
      if (!start || !end) continue;
      const ends = { "x1": start[0], "y1": start[1], "x2": end[0], "y2": end[1] };
      out.push("<g" + attrs({ "class": "link", "data-from": a, "data-to": b }) + ">" +
        el("line", Object.assign({}, ends, { "stroke": INK, "stroke-width": width * 1.8,
          "stroke-linecap": "round", "stroke-opacity": "0.55" })) +
        el("line", Object.assign({}, ends, { "stroke": stroke, "stroke-width": width,
          "stroke-linecap": "round" })) +
        "</g>");
    }
  }

  function noteFont(side) {
    return Math.max(9, Math.min(14, side * 0.16));
  }

  function drawNotes(view, geo, out) {
    const font = noteFont(geo.cell);
    for (const row of rows(view)) {
      for (const cell of row) {
        const corner = origin(geo, cell.square);
        if (!cell.note || cell.role === "off" || !corner) continue;
        const fill = colour(view.palette, cell.role);
        out.push(el("text", {
          "class": "note", "data-square": cell.square,
          "x": corner[0] + geo.cell * 0.94, "y": corner[1] + geo.cell * 0.05 + font * 0.85,
          "font-size": font, "text-anchor": "end", "fill": inkOn(fill),
          "fill-opacity": "0.8",
        }, cell.note));
      }
    }
  }

  function tokenText(label, x, y, font, fill) {
    return el("text", {
      "x": x, "y": y, "font-size": font, "text-anchor": "middle",
      "dominant-baseline": "central", "font-weight": "bold", "fill": inkOn(fill),
    }, label);
  }

  function tokenGroup(token, body) {
    return "<g" + attrs({ "class": "token", "data-role": token[0], "data-label": token[1] }) +
      ">" + body + "</g>";
  }

  function pile(view, cell, corner, side) {
    let tokens = cell.tokens.slice();
    const room = side * (1 - PILE_TOP - FOOT);
    let bar = Math.min(side * MAX_BAR, room / tokens.length);
    let hidden = 0;
    if (bar < side * MIN_BAR) {
      bar = side * MIN_BAR;
      const shown = Math.max(1, Math.floor(room / bar) - 1);
      hidden = tokens.length - shown;
      tokens = tokens.slice(hidden);
    }
    const width = side * BAR_WIDTH;
    const x = corner[0] + side * BAR_LEFT;
    let bottom = corner[1] + side * (1 - FOOT);
    const stroke = num(Math.max(0.8, side * 0.015));
    const out = [];
    if (hidden) {
      bottom -= bar;
      out.push('<g class="more">' +
        el("rect", {
          "x": x, "y": bottom, "width": width, "height": bar, "rx": bar * 0.35,
          "fill": PAPER, "stroke": INK, "stroke-width": stroke,
          "stroke-dasharray": "3 2",
        }) +
        el("text", {
          "x": x + width / 2, "y": bottom + bar / 2, "font-size": bar * 0.75,
          "text-anchor": "middle", "dominant-baseline": "central", "fill": INK,
        }, "+" + hidden) +
        "</g>");
    }
    for (const token of tokens) {
      bottom -= bar;
      const fill = colour(view.palette, token[0]);
      let body = el("rect", {
        "x": x, "y": bottom, "width": width, "height": bar, "rx": bar * 0.35,
        "fill": fill, "stroke": INK, "stroke-width": stroke,
      });
      if (token[1]) body += tokenText(token[1], x + width / 2, bottom + bar / 2, bar * 0.72, fill);
      out.push(tokenGroup(token, body));
    }
    if (hidden) {
      out.push(el("text", {
        "class": "count", "x": corner[0] + side * 0.94,
        "y": corner[1] + side * 0.94, "font-size": noteFont(side),
        "text-anchor": "end", "font-weight": "bold", "fill": INK,
      }, String(cell.tokens.length)));
    }
    return out;
  }

  function spread(view, cell, corner, side) {
    const count = cell.tokens.length;
    const cols = Math.ceil(Math.sqrt(count));
    const nrows = Math.ceil(count / cols);
    const room = side * (1 - NOTE_BAND - FOOT);
    const diameter = Math.min(side * 0.34, side * 0.84 / cols, room / nrows);
    const top = corner[1] + side * NOTE_BAND + (room - nrows * diameter) / 2;
    const stroke = num(Math.max(0.8, side * 0.012));
    const out = [];
    cell.tokens.forEach((token, index) => {
      const row = Math.floor(index / cols);
      const col = index % cols;
      const inRow = Math.min(cols, count - row * cols);
      const left = corner[0] + (side - inRow * diameter) / 2;
      const cx = left + (col + 0.5) * diameter;
      const cy = top + (row + 0.5) * diameter;
      const fill = colour(view.palette, token[0]);
      let body = el("circle", {
        "cx": cx, "cy": cy, "r": diameter * 0.44, "fill": fill, "stroke": INK,
        "stroke-width": stroke,
      });
      if (token[1]) body += tokenText(token[1], cx, cy, diameter * 0.42, fill);
      out.push(tokenGroup(token, body));
    });
    return out;
  }

  function drawTokens(view, geo, out) {
    const draw = spreadsTokens(view) ? spread : pile;
    for (const row of rows(view)) {
      for (const cell of row) {
        const corner = origin(geo, cell.square);
        if (!cell.tokens.length || cell.role === "off" || !corner) continue;
        const open = "<g" + attrs({
          "class": "stack", "data-square": cell.square, "data-height": cell.tokens.length,
        }) + ">";
        out.push(open + draw(view, cell, corner, geo.cell).join("") + "</g>");
      }
    }
  }

  function drawMarks(view, geo, out) {
    const width = Math.max(2, geo.cell * 0.06);
    const stroke = has(view.palette, "mark") ? view.palette.mark : MARK;
    for (const square of new Set(view.marks)) {
      const corner = origin(geo, square);
      if (!corner) continue;
      out.push(el("rect", {
        "class": "mark", "data-square": square,
        "x": corner[0] + width / 2, "y": corner[1] + width / 2,
        "width": geo.cell - width, "height": geo.cell - width,
        "fill": "none", "stroke": stroke, "stroke-width": width,
      }));
    }
  }

  function textLines(view, geo, facts) {
    const room = geo.width - geo.left;
    const lines = wrap(view.caption, room, geo.font).map((line) => ["caption", line]);
    if (facts) {
      for (const [key, value] of view.facts) {
        for (const line of wrap(key + ": " + value, room, geo.font)) lines.push(["fact", line]);
      }
    }
    return lines;
  }

  // The same text as svg.board_svg(view, size=size, title=title, facts=facts).
  function drawBoard(view, options) {
    const opts = options || {};
    const size = opts.size === undefined ? DEFAULT_SIZE : opts.size;
    const facts = opts.facts === undefined ? true : opts.facts;
    const geo = geometry(view, size);
    const lines = textLines(view, geo, facts);
    const lineHeight = geo.font * 1.35;
    const height = geo.textTop + lines.length * lineHeight + geo.band / 2;
    const title = opts.title !== undefined && opts.title !== null
      ? opts.title : (view.caption || "Board position");
    const parts = [
      '<svg xmlns="' + SVG_NS + '" viewBox="0 0 ' + num(geo.width) + " " + num(height) +
        '" width="' + num(geo.width) + '" height="' + num(height) + '" class="board" ' +
        'font-family="' + FONT + '">',
      el("title", {}, title),
      el("rect", { "class": "paper", "x": 0, "y": 0, "width": geo.width, "height": height,
        "rx": 6, "fill": PAPER }),
    ];
    const groups = [
      ["cells", drawCells], ["coords", drawCoordinates], ["links", drawLinks],
      ["notes", drawNotes], ["tokens", drawTokens], ["marks", drawMarks],
    ];
    for (const [name, draw] of groups) {
      parts.push('<g class="' + name + '">');
      draw(view, geo, parts);
      parts.push("</g>");
    }
    parts.push('<g class="text">');
    lines.forEach(([kind, line], index) => {
      parts.push(el("text", {
        "class": kind, "x": geo.left, "y": geo.textTop + (index + 0.8) * lineHeight,
        "font-size": geo.font, "fill": kind === "caption" ? INK : MUTED,
      }, line));
    });
    parts.push("</g>", "</svg>");
    return parts.join("\n") + "\n";
  }

  // -- the records ------------------------------------------------------------
  const DATA = JSON.parse(document.getElementById("notation-data").textContent);
  const RECORDS = DATA.records;
  const GLYPHS = DATA.glyphs;
  const $ = (id) => document.getElementById(id);

  // A node keeps what its move changed (html.py's view_delta); whole views are
  // rebuilt once per record, each from the view before it.
  function applyDelta(before, delta) {
    const view = Object.assign({}, before, delta);
    if (delta.cells) {
      const cells = Object.assign({}, before.cells);
      for (const [square, cell] of Object.entries(delta.cells)) {
        if (cell === null) delete cells[square];
        else cells[square] = cell;
      }
      view.cells = cells;
    }
    return view;
  }

  function prepareLine(moves, before) {
    let previous = before;
    for (const node of moves) {
      for (const variation of node.variations) prepareLine(variation.moves, previous);
      if (node.view) {
        node.fullView = applyDelta(previous, node.view);
        previous = node.fullView;
      }
    }
  }

  function prepare(record) {
    if (!record.fatal && !record.prepared) {
      prepareLine(record.moves, record.start);
      record.prepared = true;
    }
  }

  function tag(record, name) {
    for (const [key, value] of record.tags) if (key === name) return value;
    return null;
  }

  function recordName(record) {
    const event = tag(record, "Event") || "Record " + record.index;
    const players = record.tags.filter(([key]) => /^(White|Red|Black|Player\d)$/.test(key))
      .map(([, value]) => value);
    const who = players.length ? " (" + players.join(" - ") + ")" : "";
    return event + who;
  }

  function moveNumber(record, turn, first) {
    const size = record.roundSize || 1;
    const number = Math.floor((turn - 1) / size) + 1;
    if ((turn - 1) % size === 0) return number + ".";
    return first ? number + "..." : "";
  }

  function glyphText(node) {
    return node.nags.map((n) => (has(GLYPHS, String(n)) ? GLYPHS[String(n)] : "$" + n)).join(" ");
  }

  function lineText(record, moves, limit) {
    const words = [];
    moves.slice(0, limit).forEach((node, i) => {
      const number = moveNumber(record, node.turn, i === 0);
      words.push((number ? number + " " : "") + node.text + node.suffix);
    });
    if (moves.length > limit) words.push("...");
    return words.join(" ");
  }

  // -- the stepper: notation/stepper.py in the browser --------------------------
  const state = { record: 0, levels: [], error: null };

  function reset(recordIndex) {
    const record = RECORDS[recordIndex];
    state.record = recordIndex;
    state.levels = [{ moves: record.moves, index: 0, number: 0, firstTurn: (record.startTurn || 0) + 1,
      variation: null }];
    state.error = null;
  }

  function top() {
    return state.levels[state.levels.length - 1];
  }

  // The move that made the current position: the last one played in the deepest
  // level that has played any (a variation at its start shows the position before
  // the move it replaces).
  function lastPlayed() {
    for (let d = state.levels.length - 1; d >= 0; d--) {
      const level = state.levels[d];
      if (level.index > 0) return level.moves[level.index - 1];
    }
    return null;
  }

  function lastNode() {
    const level = top();
    return level.index > 0 ? level.moves[level.index - 1] : null;
  }

  function forward() {
    const level = top();
    if (level.index >= level.moves.length) return false;
    const node = level.moves[level.index];
    if (node.error) {
      state.error = node.error;
      return false;
    }
    level.index += 1;
    state.error = null;
    return true;
  }

  function back() {
    const level = top();
    if (level.index === 0) return false;
    level.index -= 1;
    state.error = null;
    return true;
  }

  function goto(index) {
    while (top().index > index && back()) { /* step back */ }
    while (top().index < index && forward()) { /* step on */ }
  }

  function toStart() {
    while (back()) { /* step back */ }
  }

  function toEnd() {
    while (forward()) { /* step on */ }
  }

  function enterVariation(number) {
    const node = lastNode();
    if (!node || number < 1 || number > node.variations.length) return false;
    const level = top();
    level.index -= 1;
    const variation = node.variations[number - 1];
    state.levels.push({ moves: variation.moves, index: 0, number: number, firstTurn: node.turn,
      variation: variation });
    forward();
    return true;
  }

  function leaveVariation() {
    if (state.levels.length < 2) return false;
    state.levels.pop();
    top().index += 1;
    state.error = null;
    return true;
  }

  function where() {
    if (state.levels.length < 2) return "main line";
    const parts = state.levels.slice(1).map((l) => "variation " + l.number + " at turn " + l.firstTurn);
    return parts.reverse().join(", in ");
  }

  // -- the page ------------------------------------------------------------------
  function setText(id, text) {
    $(id).textContent = text;
  }

  function showError(id, text) {
    const box = $(id);
    box.hidden = !text;
    box.textContent = text || "";
  }

  function renderBoard(record) {
    const board = $("board");
    const node = lastPlayed();
    const turn = node ? node.turn : record.startTurn;
    board.dataset.turn = String(turn);
    board.dataset.record = String(record.index);
    board.dataset.depth = String(state.levels.length - 1);
    board.dataset.index = String(top().index);
    const view = node ? node.fullView : record.start;
    const title = (tag(record, "Event") || "Record " + record.index) + ", after turn " + turn;
    board.innerHTML = drawBoard(view, { title: title });
    board.setAttribute("aria-label", title);
    setText("turn", String(turn));
  }

  function renderComments(record) {
    const level = top();
    const texts = [];
    const last = lastNode();
    if (last) texts.push(...last.after);
    else if (level.variation) texts.push(...level.variation.before);
    const next = level.index < level.moves.length ? level.moves[level.index] : null;
    if (next) texts.push(...next.before);
    else if (level.variation) texts.push(...level.variation.after);
    else texts.push(...record.after);
    const box = $("comments");
    box.replaceChildren(...texts.map((text) => {
      const p = document.createElement("p");
      p.textContent = text;
      return p;
    }));
  }

  function renderVariations(record) {
    const node = lastNode();
    const list = $("variations");
    const variations = node ? node.variations : [];
    $("variations-box").hidden = variations.length === 0;
    list.replaceChildren(...variations.map((variation, i) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "variation";
      button.dataset.variation = String(i + 1);
      button.textContent = lineText(record, variation.moves, 4) || "(no moves)";
      button.addEventListener("click", () => act(() => enterVariation(i + 1)));
      item.append(button);
      return item;
    }));
  }

  function renderMoves(record) {
    const level = top();
    const list = $("moves");
    let current = null;
    list.replaceChildren(...level.moves.map((node, i) => {
      const item = document.createElement("li");
      const number = moveNumber(record, node.turn, i === 0);
      if (number) {
        const span = document.createElement("span");
        span.className = "number";
        span.textContent = number;
        item.append(span);
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.dataset.index = String(i + 1);
      button.dataset.turn = String(node.turn);
      button.textContent = node.text + node.suffix;
      if (node.error) {
        button.classList.add("broken");
        button.title = node.error;
      }
      if (node.variations.length) button.classList.add("has-variations");
      if (i + 1 === level.index) {
        button.classList.add("current");
        button.setAttribute("aria-current", "step");
        current = button;
      }
      button.addEventListener("click", () => act(() => goto(i + 1)));
      item.append(button);
      return item;
    }));
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  function renderStatus() {
    const node = lastNode();
    const level = top();
    setText("current-move", node ? node.text + node.suffix : level.variation ? "(variation start)" : "start");
    setText("glyphs", node ? glyphText(node) : "");
    setText("where", "(" + where() + ")");
    showError("move-error", state.error);
    $("btn-start").disabled = $("btn-prev").disabled = level.index === 0;
    const atEnd = level.index >= level.moves.length;
    $("btn-next").disabled = $("btn-end").disabled = atEnd;
    $("btn-leave").disabled = state.levels.length < 2;
  }

  function renderRecord(record) {
    setText("title", recordName(record));
    document.title = recordName(record);
    const tags = $("tags");
    tags.replaceChildren();
    for (const [key, value] of record.tags) {
      const dt = document.createElement("dt");
      dt.textContent = key;
      const dd = document.createElement("dd");
      dd.textContent = value;
      tags.append(dt, dd);
    }
    showError("record-error", record.error ? "This record is broken: " + record.error : null);
  }

  function render() {
    const record = RECORDS[state.record];
    if (record.fatal) {
      $("board").replaceChildren();
      $("board").dataset.turn = "";
      $("moves").replaceChildren();
      $("comments").replaceChildren();
      $("variations-box").hidden = true;
      for (const id of ["btn-start", "btn-prev", "btn-next", "btn-end", "btn-leave"]) {
        $(id).disabled = true;
      }
      setText("current-move", "");
      return;
    }
    renderBoard(record);
    renderStatus();
    renderComments(record);
    renderVariations(record);
    renderMoves(record);
  }

  function act(change) {
    change();
    render();
  }

  function chooseRecord(index) {
    prepare(RECORDS[index]);
    reset(index);
    renderRecord(RECORDS[index]);
    render();
  }

  function setup() {
    const select = $("record-select");
    if (RECORDS.length > 1) {
      $("chooser").hidden = false;
      RECORDS.forEach((record, i) => {
        const option = document.createElement("option");
        option.value = String(i);
        const source = record.source ? record.source.split(/[\\/]/).pop() + " " : "";
        option.textContent = source + "#" + record.index + ": " + recordName(record);
        select.append(option);
      });
      select.addEventListener("change", () => chooseRecord(Number(select.value)));
    }
    $("btn-start").addEventListener("click", () => act(toStart));
    $("btn-prev").addEventListener("click", () => act(back));
    $("btn-next").addEventListener("click", () => act(forward));
    $("btn-end").addEventListener("click", () => act(toEnd));
    $("btn-leave").addEventListener("click", () => act(leaveVariation));
    document.addEventListener("keydown", onKey);
    chooseRecord(0);
  }

  function onKey(event) {
    const target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (target && /^(SELECT|INPUT|TEXTAREA)$/.test(target.tagName)) return;
    if (RECORDS[state.record].fatal) return;
    const keys = {
      ArrowRight: forward,
      ArrowLeft: back,
      Home: toStart,
      End: toEnd,
      ArrowDown: () => enterVariation(1),
      ArrowUp: leaveVariation,
      Escape: leaveVariation,
    };
    let change = has(keys, event.key) ? keys[event.key] : null;
    if (!change && /^[1-9]$/.test(event.key)) change = () => enterVariation(Number(event.key));
    if (!change) return;
    event.preventDefault();
    act(change);
  }

  // For tests and the curious: the drawing function and the viewer's state.
  window.notationViewer = { drawBoard: drawBoard, state: state, records: RECORDS };
  setup();
})();
