// The record viewer of `notation html`: draws positions and steps through records.
//
// Three parts.  `drawBoard` is a port of notation/render/svg.py (and of the colour
// rules of palette.py), step by step and constant by constant, so that a position
// looks the same here as in `notation diagram` (the text is the same for the same
// view; the legend, which the page shows beside the board, is left out); a change
// to one belongs in the other.  The records come as chunks of compact states and
// deltas (html.py says how); a record's positions are rebuilt when it is chosen.
// The stepper follows notation/stepper.py: a stack of levels (the main line, then
// each variation entered), each with the moves played in it; entering a variation
// replaces the last move by the variation's first one, leaving it goes back after
// the move it replaced.  No rules are needed here.
(function () {
  "use strict";

  // -- colours: a port of palette.py ------------------------------------------
  const INK = "#2b2622";
  const WHITE = "#ffffff";
  const AA = 4.5;
  const STEPS = 20;
  const RGB = /^#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})$/;

  function channels(colour) {
    const m = RGB.exec(colour);
    return m ? [m[1], m[2], m[3]].map((h) => parseInt(h, 16)) : null;
  }

  function linear(channel) {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  }

  function luminance(colour) {
    const rgb = channels(colour);
    if (!rgb) return 0;
    return 0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) + 0.0722 * linear(rgb[2]);
  }

  function contrast(a, b) {
    const la = luminance(a);
    const lb = luminance(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  }

  function inkOn(fill) {
    if (!channels(fill)) return INK;
    return contrast(fill, INK) >= contrast(fill, WHITE) ? INK : WHITE;
  }

  function hex(rgb) {
    return "#" + rgb.map((c) => c.toString(16).padStart(2, "0")).join("");
  }

  const readableCache = new Map();
  function readable(fill) {
    if (readableCache.has(fill)) return readableCache.get(fill);
    let out = fill;
    const rgb = channels(fill);
    if (rgb) {
      const ink = inkOn(fill);
      if (contrast(fill, ink) < AA) {
        const towards = ink === WHITE ? 0 : 255;
        out = hex([towards, towards, towards]);
        for (let step = 1; step <= STEPS; step++) {
          const t = step / STEPS;
          const candidate = hex(rgb.map((c) => Math.floor(c + (towards - c) * t + 0.5)));
          if (contrast(candidate, ink) >= AA) {
            out = candidate;
            break;
          }
        }
      }
    }
    readableCache.set(fill, out);
    return out;
  }

  // -- drawing: a port of svg.py ---------------------------------------------
  const SVG_NS = "http://www.w3.org/2000/svg";
  const PAPER = "#fbf8f1";
  const MUTED = "#5f574e";
  const MARK = "#e0a100";
  const LINK = "#efe6d2";
  const FALLBACK = "#b9b2a7";
  const FONT = "DejaVu Sans, Verdana, Arial, sans-serif";
  const BAR_LEFT = 0.1;
  const BAR_WIDTH = 0.64;
  const MAX_BAR = 0.24;
  const MIN_BAR = 0.17;
  const PILE_TOP = 0.07;
  const FOOT = 0.07;
  const COUNT_ROOM = 0.94 - BAR_LEFT - BAR_WIDTH - 0.03;
  const NOTE_BAND = 0.2;
  const LINK_WIDTH = 0.045;
  const WIDE_GLYPH = 0.7;
  const NOTE_PLACES = [[0.94, "end"], [0.06, "start"], [0.58, "start"], [0.42, "end"]];
  const ARROW_CLEAR = 0.06;
  const ARROW_SHORTEST = 0.2;
  const ARROW_START = 0.16;
  const ARROW_END = 0.2;
  const ARROW_SHAFT = 0.07;
  const ARROW_HEAD = 0.26;
  const ARROW_WING = 0.13;
  const RING = 0.4;
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

  // What XML 1.0 cannot hold, as svg.py's _NOT_XML: control characters but tab and
  // line ends, lone surrogates (a pair is one character, kept), U+FFFE and U+FFFF.
  const NOT_XML = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

  function escape(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;")
      .replace(/>/g, "&gt;").replace(/"/g, "&quot;")
      .replace(NOT_XML, (c) => {
        // As Python's ascii() writes it: \xNN below 0x100, else \uNNNN.
        const code = c.charCodeAt(0);
        return code < 0x100 ? "\\x" + code.toString(16).padStart(2, "0")
          : "\\u" + code.toString(16).padStart(4, "0");
      });
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
    return readable(has(palette, role) ? palette[role] : FALLBACK);
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

  // A square's cell, as rows() gives it (an off cell where the view has none).
  function cellOf(view, square) {
    const cell = has(view.cells, square) ? view.cells[square] : null;
    return cell ? { square: square, role: cell.role, tokens: cell.tokens, note: cell.note }
      : { square: square, role: "off", tokens: [], note: "" };
  }

  function rows(view) {
    const out = [];
    for (const rank of view.ranks.slice().reverse()) {
      const row = [];
      for (const file of view.files) {
        const square = file + rank;
        const cell = has(view.cells, square) ? view.cells[square] : null;
        row.push(cell
          ? { square: square, role: cell.role, tokens: cell.tokens, note: cell.note,
              detail: cell.detail || "" }
          : { square: square, role: "off", tokens: [], note: "", detail: "" });
      }
      out.push(row);
    }
    return out;
  }

  function tooltip(cell) {
    let text = cell.square + ": " + cell.role.replace(/-/g, " ");
    if (cell.tokens.length) {
      text += ", " + cell.tokens.map((t) => t[1] || t[0]).join(" ");
      if (cell.tokens.length > 1) text += " (bottom to top)";
    }
    if (cell.note) text += "; note " + cell.note;
    if (cell.detail) text += "; " + cell.detail;
    return text;
  }

  function drawCells(view, geo, out) {
    const stroke = num(Math.max(1, geo.cell * 0.02));
    for (const row of rows(view)) {
      for (const cell of row) {
        const corner = origin(geo, cell.square);
        if (cell.role === "off" || !corner) continue;
        out.push("<rect" + attrs({
          "class": "cell", "data-square": cell.square, "data-role": cell.role,
          "x": corner[0], "y": corner[1], "width": geo.cell, "height": geo.cell,
          "fill": colour(view.palette, cell.role), "stroke": INK,
          "stroke-width": stroke,
        }) + ">" + el("title", {}, tooltip(cell)) + "</rect>");
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

  function linkColour(view) {
    const p = view.palette;
    return has(p, "link") ? p.link : has(p, "path") ? p.path : LINK;
  }

  function link(ends, stroke, width) {
    return el("line", Object.assign({}, ends, { "stroke": INK, "stroke-width": width * 1.8,
      "stroke-linecap": "round", "stroke-opacity": "0.55" })) +
      el("line", Object.assign({}, ends, { "stroke": stroke, "stroke-width": width,
        "stroke-linecap": "round" }));
  }

  function drawLinks(view, geo, out) {
    const stroke = linkColour(view);
    const width = geo.cell * LINK_WIDTH;
    for (const [a, b] of view.links) {
      const start = centre(geo, a);
      const end = centre(geo, b);
      if (!start || !end) continue;
      const ends = { "x1": start[0], "y1": start[1], "x2": end[0], "y2": end[1] };
      out.push("<g" + attrs({ "class": "link", "data-from": a, "data-to": b }) + ">" +
        link(ends, stroke, width) + "</g>");
    }
  }

  function noteFont(side) {
    return Math.max(9, Math.min(14, side * 0.16));
  }

  function pointSegment(point, a, b) {
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const squared = dx * dx + dy * dy;
    let t = squared === 0 ? 0 : ((point[0] - a[0]) * dx + (point[1] - a[1]) * dy) / squared;
    t = Math.max(0, Math.min(1, t));
    const x = point[0] - (a[0] + t * dx);
    const y = point[1] - (a[1] + t * dy);
    return Math.sqrt(x * x + y * y);
  }

  function segmentBox(a, b, box) {
    const crossing = rayBox(a, b[0] - a[0], b[1] - a[1], box, 0);
    if (crossing !== null && crossing[0] <= 1 && crossing[1] >= 0) return 0;
    const distances = [];
    for (const [x, y] of [a, b]) {
      const dx = Math.max(box[0] - x, 0, x - box[2]);
      const dy = Math.max(box[1] - y, 0, y - box[3]);
      distances.push(Math.sqrt(dx * dx + dy * dy));
    }
    for (const x of [box[0], box[2]]) {
      for (const y of [box[1], box[3]]) distances.push(pointSegment([x, y], a, b));
    }
    return Math.min(...distances);
  }

  function notePlace(geo, corner, note, font, paths) {
    const width = length(note) * font * WIDE_GLYPH;
    const top = corner[1] + geo.cell * 0.05;
    const clear = geo.cell * LINK_WIDTH * 0.9 + geo.cell * 0.02;
    for (const [part, anchor] of NOTE_PLACES) {
      const x = corner[0] + geo.cell * part;
      const left = anchor === "end" ? x - width : x;
      const box = [left, top, left + width, top + font];
      if (paths.every(([a, b]) => segmentBox(a, b, box) > clear)) return [x, anchor];
    }
    return [corner[0] + geo.cell * NOTE_PLACES[0][0], NOTE_PLACES[0][1]];
  }

  function drawNotes(view, geo, out) {
    const font = noteFont(geo.cell);
    const paths = [];
    for (const [a, b] of view.links) {
      const start = centre(geo, a);
      const end = centre(geo, b);
      if (start && end) paths.push([start, end]);
    }
    for (const row of rows(view)) {
      for (const cell of row) {
        const corner = origin(geo, cell.square);
        if (!cell.note || cell.role === "off" || !corner) continue;
        const fill = colour(view.palette, cell.role);
        const [x, anchor] = notePlace(geo, corner, cell.note, font, paths);
        out.push(el("text", {
          "class": "note", "data-square": cell.square,
          "x": x, "y": corner[1] + geo.cell * 0.05 + font * 0.85,
          "font-size": font, "text-anchor": anchor, "fill": inkOn(fill),
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

  function bar(x, y, width, height, fill, stroke) {
    return el("rect", {
      "x": x, "y": y, "width": width, "height": height, "rx": height * 0.35,
      "fill": fill, "stroke": INK, "stroke-width": stroke,
    });
  }

  function moreBar(x, y, width, height, stroke, hidden) {
    return '<g class="more">' +
      el("rect", {
        "x": x, "y": y, "width": width, "height": height, "rx": height * 0.35,
        "fill": PAPER, "stroke": INK, "stroke-width": stroke,
        "stroke-dasharray": "3 2",
      }) +
      el("text", {
        "x": x + width / 2, "y": y + height / 2, "font-size": height * 0.75,
        "text-anchor": "middle", "dominant-baseline": "central", "fill": INK,
      }, hidden) +
      "</g>";
  }

  function pileOverflows(height) {
    return height * MIN_BAR > 1 - PILE_TOP - FOOT;
  }

  function pileBars(height, side) {
    const room = side * (1 - PILE_TOP - FOOT);
    if (!pileOverflows(height)) return [Math.min(side * MAX_BAR, room / height), 0];
    const bar = side * MIN_BAR;
    const shown = Math.max(1, Math.floor(room / bar) - 1);
    return [bar, height - shown];
  }

  function spreadGrid(count, side) {
    const cols = Math.ceil(Math.sqrt(count));
    const nrows = Math.ceil(count / cols);
    const room = side * (1 - NOTE_BAND - FOOT);
    const diameter = Math.min(side * 0.34, side * 0.84 / cols, room / nrows);
    return [cols, nrows, diameter, side * NOTE_BAND + (room - nrows * diameter) / 2];
  }

  function tokenBox(view, cell, corner, side) {
    const count = cell.tokens.length;
    if (!count || cell.role === "off") return null;
    if (spreadsTokens(view)) {
      const [cols, nrows, diameter, top] = spreadGrid(count, side);
      const width = Math.min(cols, count) * diameter;
      const left = corner[0] + (side - width) / 2;
      return [left, corner[1] + top, left + width, corner[1] + top + nrows * diameter];
    }
    const [bar, hidden] = pileBars(count, side);
    const drawn = count - hidden + (hidden ? 1 : 0);
    const bottom = corner[1] + side * (1 - FOOT);
    const left = corner[0] + side * BAR_LEFT;
    return [left, bottom - drawn * bar, left + side * BAR_WIDTH, bottom];
  }

  function pile(view, cell, corner, side) {
    const [height, hidden] = pileBars(cell.tokens.length, side);
    const tokens = cell.tokens.slice(hidden);
    const width = side * BAR_WIDTH;
    const x = corner[0] + side * BAR_LEFT;
    let bottom = corner[1] + side * (1 - FOOT);
    const stroke = num(Math.max(0.8, side * 0.015));
    const out = [];
    if (hidden) {
      bottom -= height;
      out.push(moreBar(x, bottom, width, height, stroke, "+" + hidden));
    }
    for (const token of tokens) {
      bottom -= height;
      const fill = colour(view.palette, token[0]);
      let body = bar(x, bottom, width, height, fill, stroke);
      if (token[1]) body += tokenText(token[1], x + width / 2, bottom + height / 2, height * 0.72, fill);
      out.push(tokenGroup(token, body));
    }
    if (hidden) {
      const count = String(cell.tokens.length);
      const font = Math.min(noteFont(side), side * COUNT_ROOM / (WIDE_GLYPH * length(count)));
      out.push(el("text", {
        "class": "count", "x": corner[0] + side * 0.94,
        "y": corner[1] + side * 0.94, "font-size": font,
        "text-anchor": "end", "font-weight": "bold",
        "fill": inkOn(colour(view.palette, cell.role)),
      }, count));
    }
    return out;
  }

  function disc(cx, cy, diameter, fill, stroke) {
    return el("circle", {
      "cx": cx, "cy": cy, "r": diameter * 0.44, "fill": fill, "stroke": INK,
      "stroke-width": stroke,
    });
  }

  function spread(view, cell, corner, side) {
    const count = cell.tokens.length;
    const [cols, , diameter, offset] = spreadGrid(count, side);
    const top = offset + corner[1];
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
      let body = disc(cx, cy, diameter, fill, stroke);
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
        }) + ">" + el("title", {}, tooltip(cell));
        out.push(open + draw(view, cell, corner, geo.cell).join("") + "</g>");
      }
    }
  }

  function markColour(view) {
    return has(view.palette, "mark") ? view.palette.mark : MARK;
  }

  function rayBox(start, ux, uy, box, grow) {
    let low = -Infinity;
    let high = Infinity;
    for (const [o, step, near, far] of [
      [start[0], ux, box[0] - grow, box[2] + grow],
      [start[1], uy, box[1] - grow, box[3] + grow],
    ]) {
      if (step === 0) {
        if (o < near || o > far) return null;
        continue;
      }
      const a = (near - o) / step;
      const b = (far - o) / step;
      low = Math.max(low, Math.min(a, b));
      high = Math.min(high, Math.max(a, b));
    }
    return low <= high ? [low, high] : null;
  }

  // Only square roots, products and quotients, as svg.py: the same numbers there.
  function arrowPath(start, end, side, boxes) {
    const dx = end[0] - start[0];
    const dy = end[1] - start[1];
    const len = Math.sqrt(dx * dx + dy * dy);
    if (len === 0) return null;
    const ux = dx / len;
    const uy = dy / len;
    let begin = side * ARROW_START;
    let stop = len - side * ARROW_END;
    const [from, to] = boxes || [null, null];
    if (from) {
      const out = rayBox(start, ux, uy, from, side * (ARROW_SHAFT / 2 + ARROW_CLEAR));
      if (out !== null) begin = Math.max(begin, out[1]);
    }
    if (to) {
      const into = rayBox(start, ux, uy, to, side * ARROW_CLEAR);
      if (into !== null) stop = Math.min(stop, into[0]);
    }
    if (stop - begin < side * ARROW_SHORTEST) return null;
    const head = Math.min(side * ARROW_HEAD, (stop - begin) * 0.75);
    const px = -uy;
    const py = ux;
    const x0 = start[0] + ux * begin;
    const y0 = start[1] + uy * begin;
    const x2 = start[0] + ux * stop;
    const y2 = start[1] + uy * stop;
    const x1 = x2 - ux * head;
    const y1 = y2 - uy * head;
    const shaft = side * ARROW_SHAFT / 2;
    const wing = shaft + head * ARROW_WING / ARROW_HEAD;
    const points = [
      [x0 + px * shaft, y0 + py * shaft],
      [x1 + px * shaft, y1 + py * shaft],
      [x1 + px * wing, y1 + py * wing],
      [x2, y2],
      [x1 - px * wing, y1 - py * wing],
      [x1 - px * shaft, y1 - py * shaft],
      [x0 - px * shaft, y0 - py * shaft],
    ];
    return "M" + points.map(([x, y]) => num(x) + " " + num(y)).join(" L") + " Z";
  }

  function movePath(view, geo, arrow) {
    if (!arrow || arrow.length !== 2) return null;
    const start = centre(geo, arrow[0]);
    const end = centre(geo, arrow[1]);
    const from = origin(geo, arrow[0]);
    const to = origin(geo, arrow[1]);
    if (!start || !end || !from || !to) return null;
    const boxes = [
      tokenBox(view, cellOf(view, arrow[0]), from, geo.cell),
      tokenBox(view, cellOf(view, arrow[1]), to, geo.cell),
    ];
    return arrowPath(start, end, geo.cell, boxes);
  }

  function ring(cx, cy, radius, width, stroke, square) {
    return "<g" + attrs({ "class": "ring", "data-square": square }) + ">" +
      el("circle", { "cx": cx, "cy": cy, "r": radius, "fill": "none", "stroke": INK,
        "stroke-width": width * 1.6, "stroke-opacity": "0.55" }) +
      el("circle", { "cx": cx, "cy": cy, "r": radius, "fill": "none",
        "stroke": stroke, "stroke-width": width }) +
      "</g>";
  }

  function drawMarks(view, geo, out, arrow) {
    const width = Math.max(2, geo.cell * 0.06);
    const stroke = markColour(view);
    const squares = Array.from(new Set(view.marks));
    for (const square of squares) {
      const corner = origin(geo, square);
      if (!corner) continue;
      out.push(el("rect", {
        "class": "mark", "data-square": square,
        "x": corner[0] + width / 2, "y": corner[1] + width / 2,
        "width": geo.cell - width, "height": geo.cell - width,
        "fill": "none", "stroke": stroke, "stroke-width": width,
      }));
    }
    const moved = movePath(view, geo, arrow) === null ? [] : [arrow[0], arrow[1]];
    for (const square of squares) {
      const c = centre(geo, square);
      if (moved.includes(square) || !c) continue;
      out.push(ring(c[0], c[1], geo.cell * RING, width * 0.6, stroke, square));
    }
  }

  // The arrow over the tokens, clear of those on its two squares.
  function drawArrow(view, geo, out, arrow) {
    const path = movePath(view, geo, arrow);
    if (path === null) return;
    out.push("<g" + attrs({ "class": "arrow", "data-from": arrow[0], "data-to": arrow[1] }) +
      ">" + el("path", {
        "d": path, "fill": markColour(view), "fill-opacity": "0.8", "stroke": INK,
        "stroke-width": Math.max(1, geo.cell * 0.015), "stroke-linejoin": "round",
      }) + "</g>");
  }

  function textLines(view, geo, facts, caption) {
    const room = geo.width - geo.left;
    const lines = caption
      ? wrap(view.caption, room, geo.font).map((line) => ["caption", line]) : [];
    if (facts) {
      for (const [key, value] of view.facts) {
        for (const line of wrap(key + ": " + value, room, geo.font)) lines.push(["fact", line]);
      }
    }
    return lines;
  }

  // The same text as svg.board_svg(view, size=..., title=..., facts=..., caption=...,
  // arrow=...) (legend=False: the page has its legend beside the board).
  function drawBoard(view, options) {
    const opts = options || {};
    const size = opts.size === undefined ? DEFAULT_SIZE : opts.size;
    const facts = opts.facts === undefined ? true : opts.facts;
    const caption = opts.caption === undefined ? true : opts.caption;
    const arrow = opts.arrow && opts.arrow.length === 2 ? opts.arrow : null;
    const geo = geometry(view, size);
    const lines = textLines(view, geo, facts, caption);
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
      ["marks", drawMarks], ["notes", drawNotes], ["tokens", drawTokens],
      ["arrows", drawArrow],
    ];
    for (const [name, draw] of groups) {
      parts.push('<g class="' + name + '">');
      draw(view, geo, parts, arrow);
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

  // A legend entry's swatch, as a small SVG of its own (the page's legend is HTML).
  function swatch(entry, view) {
    const [kind, , fillColour, sample] = entry;
    const u = 16;
    const mark = markColour(view);
    let body = "";
    if (kind === "cell") {
      body = el("rect", { "x": 1, "y": 1, "width": u - 2, "height": u - 2,
        "fill": readable(fillColour || FALLBACK), "stroke": INK, "stroke-width": 1 });
    } else if (kind === "token") {
      const fill = readable(fillColour || FALLBACK);
      if (spreadsTokens(view)) {
        body = el("circle", { "cx": u / 2, "cy": u / 2, "r": u / 2 - 1, "fill": fill,
          "stroke": INK, "stroke-width": 1 });
      } else {
        body = bar(1, 3, u * 1.6, u - 6, fill, 1);
      }
      if (sample) {
        const x = spreadsTokens(view) ? u / 2 : 1 + u * 0.8;
        body += tokenText(sample, x, u / 2, 8, fill);
      }
    } else if (kind === "note") {
      body = el("text", { "x": u * 1.6, "y": u * 0.8, "font-size": 12, "text-anchor": "end",
        "fill": "currentColor" }, sample);
    } else if (kind === "more") {
      body = moreBar(1, 3, u * 1.6, u - 6, 1, "+n");
    } else if (kind === "path") {
      body = link({ "x1": 2, "y1": u / 2, "x2": u * 1.6, "y2": u / 2 }, linkColour(view), 3);
    } else if (kind === "arrow") {
      body = el("path", { "d": arrowPath([-4, u / 2], [u * 1.8, u / 2], u) || "", "fill": mark,
        "stroke": INK, "stroke-width": 1 });
    } else if (kind === "ring") {
      body = ring(u / 2, u / 2, u / 2 - 2, 2, mark, "");
    } else {
      body = el("rect", { "x": 2, "y": 2, "width": u - 4, "height": u - 4, "fill": "none",
        "stroke": mark, "stroke-width": 2.5 });
    }
    return '<svg xmlns="' + SVG_NS + '" class="swatch" width="' + u * 1.8 + '" height="' + u +
      '" viewBox="0 0 ' + u * 1.8 + " " + u + '" aria-hidden="true" font-family="' + FONT +
      '">' + body + "</svg>";
  }

  // -- the records: chunks of states and deltas (html.py) -----------------------
  // The index names every record (what the chooser and the title need); a record's
  // moves and positions are in its chunk, which is parsed the first time one of its
  // records is shown: a page of thousands of records opens at once.
  const DATA = JSON.parse(document.getElementById("notation-data").textContent);
  const GLYPHS = DATA.glyphs;
  const RECORDS = DATA.records;
  const CHUNK_TEXTS = document.querySelectorAll("script.notation-chunk");
  const CHUNKS = new Map();
  const $ = (id) => document.getElementById(id);

  function load(record) {
    if (record.loaded) return;
    if (!CHUNKS.has(record.chunk)) {
      CHUNKS.set(record.chunk, JSON.parse(CHUNK_TEXTS[record.chunk].textContent));
    }
    const chunk = CHUNKS.get(record.chunk);
    Object.assign(record, chunk.records[record.at]);
    record.data = chunk;
    record.loaded = true;
  }

  // A state: frame, a cell id per square of the frame, marks, facts (string ids:
  // label, value, label, value...), caption, arrow.  A delta (a move's "d") changes
  // some of them ("g": some values of the facts); "F" starts afresh.
  function applyDelta(before, d) {
    const state = {
      frame: before ? before.frame : 0,
      ids: before ? before.ids : [],
      marks: has(d, "m") ? d.m : before ? before.marks : [],
      facts: has(d, "f") ? d.f : before ? before.facts : [],
      caption: has(d, "k") ? d.k : before ? before.caption : "",
      arrow: null,
    };
    if (has(d, "F")) {
      state.frame = d.F;
      state.ids = d.c;
    } else if (has(d, "c")) {
      state.ids = before.ids.slice();
      for (let i = 0; i < d.c.length; i += 2) state.ids[d.c[i]] = d.c[i + 1];
    }
    if (has(d, "g")) {
      state.facts = state.facts.slice();
      for (let i = 0; i < d.g.length; i += 2) state.facts[d.g[i]] = d.g[i + 1];
    }
    if (has(d, "a")) state.arrow = [state.marks[d.a[0]], state.marks[d.a[1]]];
    return state;
  }

  function factPairs(chunk, ids) {
    const out = [];
    for (let i = 0; i + 1 < ids.length; i += 2) {
      out.push([chunk.strings[ids[i]], chunk.strings[ids[i + 1]]]);
    }
    return out;
  }

  // The view dict (BoardView.to_dict()) of a state: what drawBoard draws.
  function viewOf(record, state) {
    const chunk = record.data;
    const frame = chunk.frames[state.frame];
    const cells = {};
    frame.squares.forEach((square, i) => {
      const c = chunk.cells[state.ids[i]];
      // A fourth item, when the page has one, is the cell's detail (its tooltip).
      cells[square] = c.length > 3
        ? { role: c[0], tokens: c[1], note: c[2], detail: c[3] }
        : { role: c[0], tokens: c[1], note: c[2] };
    });
    const view = {
      files: frame.files, ranks: frame.ranks, cells: cells, palette: frame.palette,
      links: frame.links, marks: state.marks,
      facts: factPairs(chunk, state.facts), caption: state.caption,
    };
    if (frame.token_layout) view.token_layout = frame.token_layout;
    return view;
  }

  // Each node gets its turn, its path (where it is in the tree: "12" is the 12th
  // move of the main line, "12/2:3" the 3rd move of the 2nd variation of that move),
  // its parent line, and the state after it.
  function prepareLine(record, moves, firstTurn, before, prefix, order) {
    let previous = before;
    moves.forEach((node, i) => {
      node.turn = firstTurn + i;
      node.path = prefix + (i + 1);
      node.line = moves;
      node.variations = node.v || [];
      order.push(node);
      node.variations.forEach((variation, v) => {
        variation.moves = variation.m;
        prepareLine(record, variation.m, node.turn, previous,
          node.path + "/" + (v + 1) + ":", order);
      });
      if (node.d) {
        node.state = applyDelta(previous, node.d);
        previous = node.state;
      }
    });
  }

  function prepare(record) {
    load(record);
    if (record.fatal || record.prepared) return;
    record.startState = applyDelta(null, record.start);
    record.order = []; // every node, in reading order: the search goes through it
    prepareLine(record, record.moves, (record.startTurn || 0) + 1, record.startState, "",
      record.order);
    record.prepared = true;
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
    return (node.n || []).map((n) => (has(GLYPHS, String(n)) ? GLYPHS[String(n)] : "$" + n))
      .join(" ");
  }

  function moveText(node) {
    return node.t + (node.s || "");
  }

  function lineText(record, moves, limit) {
    const words = [];
    moves.slice(0, limit).forEach((node, i) => {
      const number = moveNumber(record, node.turn, i === 0);
      words.push((number ? number + " " : "") + moveText(node));
    });
    if (moves.length > limit) words.push("...");
    return words.join(" ");
  }

  // -- the stepper: notation/stepper.py in the browser --------------------------
  const state = { record: 0, levels: [], error: null };

  function reset(recordIndex) {
    const record = RECORDS[recordIndex];
    state.record = recordIndex;
    state.levels = [{ moves: record.moves, index: 0, number: 0,
      firstTurn: (record.startTurn || 0) + 1, variation: null }];
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
    if (node.e) {
      state.error = node.e;
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

  function steps(count) {
    const step = count > 0 ? forward : back;
    for (let i = 0; i < Math.abs(count) && step(); i++) { /* step */ }
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

  // Go to the node at `path` (see prepareLine); false if the record has none there.
  function gotoPath(path) {
    const parts = String(path).split("/");
    const first = Number(parts[0]);
    if (!Number.isInteger(first) || first < 0) return false;
    reset(state.record);
    goto(first);
    if (top().index !== first) return false;
    for (const part of parts.slice(1)) {
      const m = /^(\d+):(\d+)$/.exec(part);
      if (!m || !enterVariation(Number(m[1]))) return false;
      goto(Number(m[2]));
      if (top().index !== Number(m[2])) return false;
    }
    return true;
  }

  function currentPath() {
    const parts = state.levels.map((level, d) => {
      const index = d < state.levels.length - 1 ? level.index + 1 : level.index;
      return d === 0 ? String(index) : level.number + ":" + index;
    });
    return parts.join("/");
  }

  // The turns of the current line: from the position before its first move.
  function lineTurns() {
    const level = top();
    return [level.firstTurn - 1, level.firstTurn - 1 + level.moves.length];
  }

  // Go to the position after `turn` in the current line; a turn the line does not
  // have leaves the position as it is (false).  A broken move stops the way there.
  function gotoTurn(turn) {
    const [first, last] = lineTurns();
    if (!(turn >= first && turn <= last)) return false;
    goto(turn - first);
    const node = lastPlayed();
    return (node ? node.turn : RECORDS[state.record].startTurn || 0) === turn;
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

  function make(tagName, className, text) {
    const node = document.createElement(tagName);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function currentState(record) {
    const node = lastPlayed();
    return node ? node.state : record.startState;
  }

  function renderBoard(record) {
    const board = $("board");
    const node = lastPlayed();
    const turn = node ? node.turn : record.startTurn || 0;
    const current = currentState(record);
    board.dataset.turn = String(turn);
    board.dataset.record = String(record.index);
    board.dataset.position = String(state.record + 1);
    board.dataset.depth = String(state.levels.length - 1);
    board.dataset.index = String(top().index);
    board.dataset.path = currentPath();
    const view = viewOf(record, current);
    const title = (tag(record, "Event") || "Record " + record.index) + ", after turn " + turn;
    // Neither caption nor facts in the picture: its size stays the same while
    // stepping; they are shown under it, as text that wraps.
    board.innerHTML = drawBoard(view, { title: title, facts: false, caption: false,
      arrow: current.arrow });
    board.setAttribute("aria-label", title);
    setText("turn", String(turn));
    setText("caption", view.caption || (node ? "" : "the start position"));
    const facts = $("facts");
    facts.replaceChildren();
    for (const [key, value] of view.facts) facts.append(make("dt", "", key), make("dd", "", value));
  }

  function renderComments(record) {
    const level = top();
    const texts = [];
    const last = lastNode();
    if (last) texts.push(...(last.a || []));
    else if (level.variation) texts.push(...(level.variation.b || []));
    const next = level.index < level.moves.length ? level.moves[level.index] : null;
    if (next) texts.push(...(next.b || []));
    else if (level.variation) texts.push(...(level.variation.a || []));
    else texts.push(...record.after);
    $("comments").replaceChildren(...texts.map((text) => make("p", "", text)));
  }

  function renderVariations(record) {
    const node = lastNode();
    const variations = node ? node.variations : [];
    $("variations-box").hidden = variations.length === 0;
    $("variations").replaceChildren(...variations.map((variation, i) => {
      const item = make("li");
      const button = make("button", "variation",
        lineText(record, variation.moves, 4) || "(no moves)");
      button.type = "button";
      button.dataset.variation = String(i + 1);
      button.title = "Enter this variation (" + (i + 1) + ")";
      button.addEventListener("click", () => act(() => enterVariation(i + 1)));
      item.append(button);
      return item;
    }));
  }

  // The whole tree, variations inline in parentheses as PGN viewers show them; made
  // once per record, then only the current move's mark moves.
  function lineElements(record, moves, depth) {
    const out = [];
    moves.forEach((node, i) => {
      for (const text of node.b || []) out.push(make("span", "comment", text));
      const number = moveNumber(record, node.turn, i === 0 || (node.b || []).length > 0 ||
        (i > 0 && moves[i - 1].variations.length > 0));
      if (number) out.push(make("span", "number", number));
      const button = make("button", "move", moveText(node));
      button.type = "button";
      button.dataset.path = node.path;
      button.dataset.turn = String(node.turn);
      if (depth === 0) button.dataset.index = String(i + 1);
      const glyphs = glyphText(node);
      if (glyphs) button.append(make("span", "glyph", glyphs));
      if (node.e) {
        button.classList.add("broken");
        button.title = node.e;
      } else if (node.state) {
        button.title = node.state.caption;
      }
      out.push(button);
      for (const text of node.a || []) out.push(make("span", "comment", text));
      node.variations.forEach((variation) => {
        const box = make("span", "line depth-" + Math.min(depth + 1, 3));
        const inner = [];
        for (const text of variation.b || []) inner.push(make("span", "comment", text));
        inner.push(...lineElements(record, variation.moves, depth + 1));
        for (const text of variation.a || []) inner.push(make("span", "comment", text));
        box.append(make("span", "paren", "("), ...spaced(inner), make("span", "paren", ")"));
        out.push(box);
      });
    });
    return out;
  }

  // Spaces between the items of a move list, so that its text reads (and copies)
  // as a record does: "1. b1 c5 (1... d5)".
  function spaced(items) {
    const out = [];
    items.forEach((item, i) => {
      if (i) out.push(" ");
      out.push(item);
    });
    return out;
  }

  let movesOf = -1;
  function renderMoves(record) {
    const list = $("moves");
    if (movesOf !== state.record) {
      list.replaceChildren(...spaced(lineElements(record, record.moves, 0)));
      list.scrollTop = 0;
      movesOf = state.record;
    }
    for (const old of list.querySelectorAll("button.current")) {
      old.classList.remove("current");
      old.removeAttribute("aria-current");
    }
    const node = lastNode();
    if (!node) return;
    const current = list.querySelector('button[data-path="' + node.path + '"]');
    if (current) {
      current.classList.add("current");
      current.setAttribute("aria-current", "step");
      // Within the list only: scrolling the page would move the board on a phone.
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
        list.scrollTop = top - list.clientHeight / 3;
      }
    }
  }

  function renderStatus() {
    const node = lastNode();
    const level = top();
    setText("current-move", node ? moveText(node) : level.variation ? "(variation start)" : "start");
    setText("glyphs", node ? glyphText(node) : "");
    setText("where", "(" + where() + ")");
    showError("move-error", state.error);
    $("btn-start").disabled = $("btn-prev").disabled = level.index === 0;
    const atEnd = level.index >= level.moves.length;
    $("btn-next").disabled = $("btn-end").disabled = atEnd;
    $("btn-leave").disabled = state.levels.length < 2;
  }

  function renderLegend(record) {
    const view = viewOf(record, record.startState);
    $("legend").replaceChildren(...(record.legend || []).map((entry) => {
      const item = make("li");
      item.dataset.kind = entry[0];
      item.title = entry[4];
      const picture = make("span", "swatch-box");
      picture.innerHTML = swatch(entry, view);
      item.append(picture, make("span", "", entry[4]));
      return item;
    }));
    $("legend-box").hidden = !(record.legend || []).length;
  }

  function renderRecord(record) {
    setText("title", recordName(record));
    document.title = recordName(record);
    const tags = $("tags");
    tags.replaceChildren();
    for (const [key, value] of record.tags) tags.append(make("dt", "", key), make("dd", "", value));
    showError("record-error", record.error ? "This record is broken: " + record.error : null);
    if (RECORDS.length > 1) {
      $("record-select").value = String(state.record);
      $("btn-prev-record").disabled = state.record === 0;
      $("btn-next-record").disabled = state.record === RECORDS.length - 1;
    }
    if (!record.fatal) renderLegend(record);
    else $("legend-box").hidden = true;
  }

  function updateHash() {
    const node = lastPlayed();
    const record = RECORDS[state.record];
    const turn = node ? node.turn : record.startTurn || 0;
    let hash = "#record=" + (state.record + 1) + "&turn=" + turn;
    if (state.levels.length > 1) hash += "&path=" + currentPath();
    if (location.hash !== hash) {
      try {
        history.replaceState(null, "", hash);
      } catch (e) { /* some browsers refuse it on file:// pages: the link is a nicety */ }
    }
  }

  function render() {
    const record = RECORDS[state.record];
    if (record.fatal) {
      $("board").replaceChildren();
      $("board").dataset.turn = "";
      $("board").dataset.position = String(state.record + 1);
      $("moves").replaceChildren();
      movesOf = -1;
      $("comments").replaceChildren();
      $("facts").replaceChildren();
      setText("caption", "");
      $("variations-box").hidden = true;
      for (const id of ["btn-start", "btn-prev", "btn-next", "btn-end", "btn-leave"]) {
        $(id).disabled = true;
      }
      setText("current-move", "");
      stopPlay();
      updateHash();
      return;
    }
    renderBoard(record);
    renderStatus();
    renderComments(record);
    renderVariations(record);
    renderMoves(record);
    updateHash();
    if (playing && top().index >= top().moves.length) stopPlay();
  }

  function act(change) {
    change();
    render();
  }

  function chooseRecord(index) {
    const target = Math.max(0, Math.min(RECORDS.length - 1, index));
    prepare(RECORDS[target]);
    reset(target);
    renderRecord(RECORDS[target]);
    render();
  }

  // -- autoplay ------------------------------------------------------------------
  let playing = null;

  function stopPlay() {
    if (playing) clearInterval(playing);
    playing = null;
    const button = $("btn-play");
    button.textContent = "\u25B6 Play";
    button.setAttribute("aria-pressed", "false");
  }

  function togglePlay() {
    if (playing) {
      stopPlay();
      return;
    }
    if (RECORDS[state.record].fatal) return;
    if (top().index >= top().moves.length) act(toStart);
    const button = $("btn-play");
    button.textContent = "\u275A\u275A Pause";
    button.setAttribute("aria-pressed", "true");
    playing = setInterval(() => {
      if (!forward()) stopPlay();
      render();
    }, Number($("play-speed").value) || 1000);
  }

  // -- the prompt: go to a turn, search --------------------------------------------
  let promptKind = null;
  let lastSearch = "";

  function openPrompt(kind) {
    promptKind = kind;
    $("prompt").hidden = false;
    setText("prompt-label", kind === "turn" ? "Go to turn" : "Search a move or comment");
    setText("prompt-note", kind === "turn" ? "Enter: go; Esc: close" : "Enter: next match; Esc: close");
    const input = $("prompt-input");
    input.value = kind === "search" ? lastSearch : "";
    input.inputMode = kind === "turn" ? "numeric" : "text";
    input.focus();
    input.select();
  }

  function closePrompt() {
    promptKind = null;
    $("prompt").hidden = true;
    $("prompt-input").blur();
  }

  function matches(node, query) {
    if (moveText(node).toLowerCase().includes(query)) return true;
    return (node.b || []).concat(node.a || []).some((c) => c.toLowerCase().includes(query));
  }

  function search(text) {
    const query = text.trim().toLowerCase();
    lastSearch = text;
    if (!query) return;
    const record = RECORDS[state.record];
    const order = record.order || [];
    const here = lastNode();
    const start = here ? order.indexOf(here) + 1 : 0;
    const found = [];
    order.forEach((node, i) => { if (matches(node, query)) found.push(i); });
    if (!found.length) {
      setText("prompt-note", "no move or comment has \u201C" + text.trim() + "\u201D");
      return;
    }
    const next = found.find((i) => i >= start);
    const target = next === undefined ? found[0] : next;
    act(() => gotoPath(order[target].path));
    setText("prompt-note", "match " + (found.indexOf(target) + 1) + " of " + found.length +
      "; Enter: next");
  }

  function submitPrompt() {
    const text = $("prompt-input").value;
    if (promptKind === "turn") {
      const turn = Number(text.trim());
      if (!/^\d+$/.test(text.trim())) {
        setText("prompt-note", "a turn is a number");
        return;
      }
      let reached = false;
      act(() => { reached = gotoTurn(turn); });
      const [first, last] = lineTurns();
      if (reached) closePrompt();
      else if (turn < first || turn > last) {
        setText("prompt-note", "this line has no turn " + turn + ": turns " + first + " to " + last);
      } else setText("prompt-note", "stopped before a move that cannot be played");
    } else if (promptKind === "search") {
      search(text);
    }
  }

  // -- help ------------------------------------------------------------------------
  function toggleHelp(show) {
    const help = $("help");
    help.hidden = show === undefined ? !help.hidden : !show;
    if (!help.hidden) $("help-close").focus();
  }

  // -- keys and deep links -----------------------------------------------------------
  function readHash(hash) {
    const params = new URLSearchParams((typeof hash === "string" ? hash : location.hash)
      .replace(/^#/, ""));
    const number = Number(params.get("record") || "1");
    const index = Number.isInteger(number) && number >= 1 && number <= RECORDS.length
      ? number - 1 : 0;
    if (index !== state.record || !RECORDS[index].prepared) chooseRecord(index);
    if (RECORDS[index].fatal) return;
    if (params.has("path")) {
      act(() => { if (!gotoPath(params.get("path"))) reset(index); });
    } else if (params.has("turn")) {
      act(() => { reset(index); gotoTurn(Number(params.get("turn"))); });
    }
  }

  function setup() {
    const select = $("record-select");
    if (RECORDS.length > 1) {
      $("chooser").hidden = false;
      $("record-nav").hidden = false;
      const options = RECORDS.map((record, i) => {
        const option = make("option");
        option.value = String(i);
        const source = record.source ? record.source.split(/[\\/]/).pop() + " " : "";
        option.textContent = (i + 1) + ". " + source + "#" + record.index + ": " + recordName(record);
        return option;
      });
      select.append(...options);
      select.addEventListener("change", () => {
        chooseRecord(Number(select.value));
        // The keys step through the moves again, not through the records.
        select.blur();
      });
    }
    $("btn-start").addEventListener("click", () => act(toStart));
    $("btn-prev").addEventListener("click", () => act(back));
    $("btn-next").addEventListener("click", () => act(forward));
    $("btn-end").addEventListener("click", () => act(toEnd));
    $("btn-leave").addEventListener("click", () => act(leaveVariation));
    $("btn-play").addEventListener("click", togglePlay);
    $("btn-prev-record").addEventListener("click", () => chooseRecord(state.record - 1));
    $("btn-next-record").addEventListener("click", () => chooseRecord(state.record + 1));
    $("btn-help").addEventListener("click", () => toggleHelp());
    $("help-close").addEventListener("click", () => toggleHelp(false));
    $("moves").addEventListener("click", (event) => {
      const button = event.target.closest("button.move");
      if (button) act(() => gotoPath(button.dataset.path));
    });
    $("prompt-input").addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        submitPrompt();
      } else if (event.key === "Escape") {
        event.preventDefault();
        closePrompt();
      }
      event.stopPropagation();
    });
    $("prompt-close").addEventListener("click", closePrompt);
    document.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", () => readHash());
    // Read before the first render, which writes the address of the position shown.
    const initial = location.hash;
    chooseRecord(0);
    if (initial) readHash(initial);
  }

  const KEYS = {
    ArrowRight: () => act(forward),
    ArrowLeft: () => act(back),
    Home: () => act(toStart),
    End: () => act(toEnd),
    PageDown: () => act(() => steps(10)),
    PageUp: () => act(() => steps(-10)),
    ArrowDown: () => act(() => enterVariation(1)),
    ArrowUp: () => act(leaveVariation),
    Escape: () => act(leaveVariation),
    "g": () => openPrompt("turn"),
    "/": () => openPrompt("search"),
    "]": () => chooseRecord(state.record + 1),
    "n": () => chooseRecord(state.record + 1),
    "[": () => chooseRecord(state.record - 1),
    "p": () => chooseRecord(state.record - 1),
    "l": () => { if (RECORDS.length > 1) $("record-select").focus(); },
    "?": () => toggleHelp(),
    // The terminal viewer's quit: here it closes the help, and otherwise does nothing
    // (a page cannot close its own tab).
    "q": () => toggleHelp(false),
    " ": togglePlay,
  };
  // What still works on a record that cannot be replayed.
  const RECORD_KEYS = new Set(["]", "[", "n", "p", "l", "?", "q"]);

  function onKey(event) {
    const target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (target && /^(SELECT|INPUT|TEXTAREA)$/.test(target.tagName)) return;
    if (!$("help").hidden && (event.key === "Escape" || event.key === "q" || event.key === "?")) {
      event.preventDefault();
      toggleHelp(false);
      return;
    }
    let run = has(KEYS, event.key) ? KEYS[event.key] : null;
    if (!run && /^[1-9]$/.test(event.key)) run = () => act(() => enterVariation(Number(event.key)));
    if (!run) return;
    if (RECORDS[state.record].fatal && !RECORD_KEYS.has(event.key)) return;
    // A button that has the focus must not take Space or Enter as its own click too.
    event.preventDefault();
    run();
  }

  // For tests and the curious: the drawing function and the viewer's state.
  window.notationViewer = {
    drawBoard: drawBoard,
    state: state,
    records: RECORDS,
    currentView: () => viewOf(RECORDS[state.record], currentState(RECORDS[state.record])),
    currentArrow: () => currentState(RECORDS[state.record]).arrow,
    gotoPath: (path) => { prepare(RECORDS[state.record]); let ok = false; act(() => { ok = gotoPath(path); }); return ok; },
  };
  setup();
})();
