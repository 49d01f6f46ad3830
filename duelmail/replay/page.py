# ruff: noqa: E501  (the page template: long SVG paths and markup lines read better whole)
"""The replay page's template: HTML, CSS, SVG defs and script in one string.

``{{TITLE}}`` and ``{{DATA}}`` are filled in by ``duelmail.replay.html`` (in one pass). The script
reads the JSON, draws a step for the chosen view, and never puts archive text into ``innerHTML``:
text goes in as text nodes; only SVG built from a matched card token (a fixed alphabet) and a game
hook's own fragment are inserted as markup.
"""

PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>{{TITLE}}</title>
<style>
:root {
  --felt: #1d5a3c; --felt-dark: #154530; --ink: #1d2326; --paper: #f6f3ec; --muted: #6b7378;
  --accent: #e0b84c; --bad: #c62828; --ok: #2e7d32; --wait: #9a6b00;
  --s0: #2f6fc0; --s1: #c8562a; --s2: #7d4fc0; --s3: #23936d; --s4: #127a8a; --s5: #c23f7e;  /* games/svg.py SEATS */
  --s6: #4b6372; --s7: #8b1e3f; --s8: #5a7d1a; --s9: #8a3a9c; --s10: #3b3b98; --s11: #7a5230;
}
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: var(--ink); background: #e9e5dc; }
header { background: #12201a; color: #f1efe7; padding: 14px 22px 12px; display: flex; flex-wrap: wrap;
  align-items: center; gap: 8px 22px; }
header h1 { margin: 0; font-size: 21px; font-weight: 650; letter-spacing: .2px; }
header h1 .players { font-weight: 400; color: #c9d4cc; }
header .gid { color: #8fa197; font: 12px ui-monospace, "DejaVu Sans Mono", monospace; }
#outcome { flex: 1 1 320px; color: #e8e2cf; }
.badge { display: inline-block; padding: 4px 12px; border-radius: 999px; font-weight: 700; font-size: 13px;
  letter-spacing: .4px; cursor: pointer; border: 0; color: #fff; }
.badge.save { background: #3d5566; }
svg.card.mini { width: 15px; height: 21px; margin: 0 2px; vertical-align: -5px; }
.badge.ok { background: var(--ok); } .badge.bad { background: var(--bad); } .badge.wait { background: var(--wait); }
nav#controls { position: sticky; top: 0; z-index: 5; background: #f8f6f0; border-bottom: 1px solid #d6d0c2;
  padding: 8px 22px; display: flex; flex-wrap: wrap; align-items: center; gap: 8px 14px; }
nav button, #views button { font: inherit; border: 1px solid #bdb5a3; background: #fff; border-radius: 8px;
  padding: 4px 11px; cursor: pointer; }
nav button:hover, #views button:hover { background: #f1ecdf; }
svg.ic { width: 12px; height: 12px; vertical-align: -1px; }
nav button:disabled { opacity: .4; cursor: default; }
#round-label { min-width: 190px; font-weight: 650; text-align: center; font-variant-numeric: tabular-nums; }
#slider { flex: 1 1 220px; accent-color: var(--felt); }
#views { display: flex; flex-wrap: wrap; gap: 6px; }
#views button.on { background: var(--felt); border-color: var(--felt); color: #fff; }
#strip { display: flex; height: 14px; margin: 0 22px; padding-top: 6px; cursor: pointer; }
#strip i { flex: 1 1 0; min-width: 1px; background: #cfc8b8; border-right: 1px solid #e9e5dc; }
#strip i.play { background: var(--c, #8a8a8a); }
#strip i.cheat { background: var(--bad); }
#strip i.cur { outline: 2px solid var(--ink); outline-offset: 0; position: relative; z-index: 1; }
main { display: grid; grid-template-columns: minmax(0, 1fr) 360px; gap: 18px; padding: 14px 22px 22px; }
@media (max-width: 980px) { main { grid-template-columns: 1fr; } }
#outcome button { font: inherit; font-size: 13px; border: 1px solid #8fa197; background: none; color: #e8e2cf;
  border-radius: 8px; padding: 2px 10px; cursor: pointer; }
#board { display: grid; gap: 14px; grid-template-columns: repeat(auto-fill, minmax(min(100%, 460px), 1fr));
  align-content: start; }
#board.single { grid-template-columns: 1fr; }
.panel { background: radial-gradient(ellipse at 30% 0%, #2a7350 0%, var(--felt) 55%, var(--felt-dark) 100%);
  color: #f3f1ea; border-radius: 14px; padding: 12px 16px 14px; box-shadow: 0 2px 8px rgba(0,0,0,.18); }
.panel h3 { margin: 0 0 6px; font-size: 14px; font-weight: 650; color: var(--accent); letter-spacing: .3px;
  text-transform: uppercase; }
.panel .note { font-size: 12.5px; color: #cfe0d6; margin: 0 0 8px; }
.tbl { font: 13.5px/1.6 ui-monospace, "DejaVu Sans Mono", "Liberation Mono", monospace; white-space: pre-wrap;
  overflow-wrap: anywhere; }
.ln { min-height: 1.6em; }
.ln.hd { font-weight: 650; color: #fff; margin-top: 3px; }
.ln:first-child { color: var(--accent); }
.ref { color: #9fc2ae; font-size: 11.5px; margin-left: 2px; }
svg.card { width: 34px; height: 48px; vertical-align: middle; margin: 2px 1px; filter: drop-shadow(0 1px 1px rgba(0,0,0,.35)); }
.hook { margin-bottom: 10px; }
.pic { background: #fffdf8; border-radius: 10px; overflow: hidden; max-width: 960px; margin: 0 auto; }  /* svg.py MAX_PX */
.pic svg { display: block; width: 100%; height: auto; }
details.text-view { margin-top: 10px; }
details.text-view summary { cursor: pointer; color: var(--accent); font-weight: 650; }
aside { display: flex; flex-direction: column; gap: 14px; min-width: 0; }
.box { background: #fffdf8; border: 1px solid #d9d2c3; border-radius: 12px; padding: 10px 14px; }
.box h2 { margin: 0 0 6px; font-size: 15px; }
#events ol { margin: 0; padding: 0; list-style: none; }
#events li { padding: 3px 0 3px 16px; position: relative; }
#events li::before { content: ""; position: absolute; left: 2px; top: 10px; width: 8px; height: 8px;
  border-radius: 50%; background: var(--c, #999); }
#events li.tech { color: var(--muted); font-size: 12.5px; }
#events li.cheat { color: var(--bad); font-weight: 700; }
#events li.talk { font-style: italic; }
#events .meta { color: var(--muted); font-size: 12px; margin: 6px 0 0; }
#timeline ol { margin: 0; padding: 0; list-style: none; max-height: 46vh; overflow-y: auto; }
#timeline li { padding: 2px 6px; border-radius: 6px; cursor: pointer; font-size: 13px; display: flex; gap: 4px;
  overflow-wrap: anywhere; }  /* a long move wraps under itself, never cut */
#timeline li b { flex: 0 0 44px; color: var(--muted); font-weight: 600; }
#timeline li.tech { color: #9a9a9a; }
#timeline li.later, #timeline li.later.cheat { color: #9a9a9a; font-weight: 400; }
#strip i.later, #strip i.later.cheat { background: #cfc8b8; }
#timeline li.cheat { color: var(--bad); font-weight: 650; }
#timeline li:hover { background: #f1ecdf; }
#timeline li.cur { background: var(--felt); color: #fff; }
#timeline li.cur b { color: #d7eadf; }
section.wide { margin: 0 22px 18px; }
#audit ul { margin: 6px 0 0; padding-left: 20px; }
#audit li.cheat { color: var(--bad); font-weight: 650; }
#decks .deck { display: flex; flex-wrap: wrap; align-items: center; gap: 0; margin: 4px 0; }
#decks .deck b { min-width: 70px; font: 13px ui-monospace, monospace; }
#decks svg.card { width: 22px; height: 31px; margin: 1px; }
footer { color: var(--muted); font-size: 12.5px; padding: 0 22px 24px; }
kbd { border: 1px solid #bbb; border-bottom-width: 2px; border-radius: 4px; padding: 0 4px; font-size: 11.5px;
  background: #fff; }
@media (max-width: 560px) { main { padding: 8px 0 16px; } .panel { padding: 8px 0 10px; border-radius: 0; }
  .panel h3, .panel .note, details.text-view { margin-left: 8px; margin-right: 8px; } .pic { border-radius: 0; }
  header { padding: 10px 12px 8px; } header h1 { font-size: 18px; } nav#controls { padding: 6px 8px; }
  #strip { margin: 0 8px; } section.wide { margin: 0 4px 14px; } }
</style>
</head>
<body>
<svg width="0" height="0" style="position:absolute;overflow:hidden" aria-hidden="true">
 <defs>
  <pattern id="dm-back" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
   <rect width="8" height="8" fill="#23508f"/><rect width="4" height="8" fill="#2f63ad"/>
  </pattern>
  <symbol id="dm-H" viewBox="0 0 100 100"><path d="M50 92C22 68 2 50 2 29 2 13 14 3 28 3c10 0 18 6 22 15 4-9 12-15 22-15 14 0 26 10 26 26 0 21-20 39-48 63z"/></symbol>
  <symbol id="dm-D" viewBox="0 0 100 100"><path d="M50 2 88 50 50 98 12 50z"/></symbol>
  <symbol id="dm-S" viewBox="0 0 100 100"><path d="M50 3C72 25 97 42 97 63c0 14-10 24-23 24-9 0-16-4-20-11 1 10 6 17 14 22H32c8-5 13-12 14-22-4 7-11 11-20 11C13 87 3 77 3 63 3 42 28 25 50 3z"/></symbol>
  <symbol id="dm-C" viewBox="0 0 100 100"><circle cx="50" cy="27" r="22"/><circle cx="26" cy="60" r="22"/><circle cx="74" cy="60" r="22"/><path d="M45 55c0 18-5 32-15 43h40C60 87 55 73 55 55z"/></symbol>
  <symbol id="dm-star" viewBox="0 0 100 100"><path d="M50 4 61 38h36L68 59l11 35-29-21-29 21 11-35L3 38h36z"/></symbol>
 </defs>
</svg>
<header>
 <h1><span id="game-title"></span> <span class="players" id="players"></span></h1>
 <span class="gid" id="gid"></span>
 <span id="outcome"></span>
 <button class="badge" id="verdict" title="Show the audit report"></button>
 <button class="badge save" id="save" title="Save the signed files this page was built from (duelmail replay, duelmail verify read it)">Save the archive</button>
</header>
<nav id="controls" aria-label="Replay controls">
 <button id="first" title="First step (Home)" aria-label="First step"><svg class="ic" viewBox="0 0 16 16" aria-hidden="true"><path d="M2 2h2.2v12H2zM14 2v12L5 8z" fill="currentColor"/></svg></button>
 <button id="prev" title="Back (&#x2190;)" aria-label="Back"><svg class="ic" viewBox="0 0 16 16" aria-hidden="true"><path d="M13 2v12L3 8z" fill="currentColor"/></svg> Back</button>
 <span id="round-label" aria-live="polite"></span>
 <button id="next" title="Next (&#x2192;)" aria-label="Next">Next <svg class="ic" viewBox="0 0 16 16" aria-hidden="true"><path d="M3 2v12l10-6z" fill="currentColor"/></svg></button>
 <button id="last" title="End of the game (End)" aria-label="End"><svg class="ic" viewBox="0 0 16 16" aria-hidden="true"><path d="M11.8 2H14v12h-2.2zM2 2v12l9-6z" fill="currentColor"/></svg></button>
 <button id="play" title="Play the game step by step (space)" aria-label="Play">&#x25B6; Play</button>
 <input type="range" id="slider" min="0" value="0" aria-label="Jump to a round">
 <div id="views" role="group" aria-label="Whose view"></div>
</nav>
<div id="strip" aria-hidden="true"></div>
<main>
 <section id="board" aria-label="The table"></section>
 <aside>
  <div class="box" id="events"><h2 id="events-title"></h2><ol id="event-list"></ol><p class="meta" id="awaited"></p><p class="meta" id="files"></p></div>
  <div class="box" id="timeline"><h2>Moves</h2><ol id="tl"></ol></div>
 </aside>
</main>
<section class="wide box" id="audit"><h2>Audit</h2><p id="audit-word"></p><ul id="audit-lines"></ul></section>
<section class="wide box" id="decks" hidden><details><summary><b>Deck orders</b> (every deck as the audit recomputed it, position 0 first)</summary><div id="deck-list"></div></details></section>
<footer>Keys: <kbd>&#x2190;</kbd>/<kbd>&#x2192;</kbd> back and next, <kbd>Home</kbd>/<kbd>End</kbd> first and last,
<kbd>t</kbd> the table, <kbd>1</kbd>&#x2013;<kbd>6</kbd> a seat's view, <kbd>a</kbd> everything (once audited).
Made by duelmail replay from the signed archive; this page needs no network.</footer>
<script id="replay-data" type="application/json">{{DATA}}</script>
<script>
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const N = D.steps.length;
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text; return e; };
  const seatColor = (s) => s >= 0 && s < 12 ? `var(--s${s})` : "#999";
  const RED = { H: 1, D: 1, R: 1 };
  const SUIT = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const RANK = { J: "jack", Q: "queen", K: "king", A: "ace" };
  const svgCache = new Map();

  function cardSvg(tok) {
    if (svgCache.has(tok)) return svgCache.get(tok);
    let body, label;
    if (tok === "[??]") {
      label = "face-down card";
      body = '<rect x="1" y="1" width="58" height="82" rx="6" fill="#fdfcf7" stroke="#7d7d7d"/>' +
        '<rect x="5" y="5" width="50" height="74" rx="4" fill="url(#dm-back)"/>' +
        '<rect x="9" y="9" width="42" height="66" rx="3" fill="none" stroke="#d8e2f2" stroke-width="1.5"/>';
    } else if (tok[0] === "X") {
      const c = RED[tok[1]] ? "#c62828" : "#1b1b1b";
      label = (tok[1] === "R" ? "red" : "black") + " joker";
      body = '<rect x="1" y="1" width="58" height="82" rx="6" fill="#fffdf8" stroke="#7d7d7d"/>' +
        `<use href="#dm-star" x="13" y="25" width="34" height="34" fill="${c}"/>` +
        `<text x="7" y="17" font-size="12" font-weight="700" fill="${c}" font-family="sans-serif">JKR</text>` +
        `<text x="53" y="77" font-size="12" font-weight="700" fill="${c}" font-family="sans-serif" text-anchor="end">JKR</text>`;
    } else {
      const rank = tok.slice(0, -1), suit = tok.slice(-1), c = RED[suit] ? "#c62828" : "#1b1b1b";
      label = (RANK[rank] || rank) + " of " + SUIT[suit];
      const corner = `<text x="${rank.length > 1 ? 4 : 6}" y="19" font-size="17" font-weight="700" fill="${c}" ` +
        `font-family="sans-serif" letter-spacing="-1">${rank}</text>` +
        `<use href="#dm-${suit}" x="5" y="23" width="11" height="11" fill="${c}"/>`;
      body = '<rect x="1" y="1" width="58" height="82" rx="6" fill="#fffdf8" stroke="#7d7d7d"/>' + corner +
        `<g transform="rotate(180 30 42)">${corner}</g>` +
        `<use href="#dm-${suit}" x="17" y="29" width="26" height="26" fill="${c}"/>`;
    }
    const svg = `<svg class="card" viewBox="0 0 60 84" role="img" aria-label="${label}" data-card="${tok === "[??]" ? "??" : tok}">` +
      `<title>${label}</title>${body}</svg>`;
    svgCache.set(tok, svg);
    return svg;
  }

  function cardNode(tok) {
    const t = document.createElement("template");
    t.innerHTML = cardSvg(tok);
    return t.content.firstChild;
  }

  // card tokens (QH, 10S, XR), a face-down card [??], and refs (a#3, a.2#17)
  const TOK = /(\[\?\?\])|(?<![\w#.])((?:10|[2-9JQKA])[SHDC]|X[RB])(?![\w#])|([a-z]+[0-9]*(?:\.[0-9]+)?#[0-9]+)/g;

  function lineNode(text) {
    const div = el("div", "ln" + (/^\S/.test(text) ? " hd" : ""));
    let last = 0, m;
    TOK.lastIndex = 0;
    while ((m = TOK.exec(text)) !== null) {
      if (m.index > last) div.appendChild(document.createTextNode(text.slice(last, m.index)));
      if (m[3]) div.appendChild(el("span", "ref", m[3]));
      else div.appendChild(cardNode(m[1] || m[2]));
      last = TOK.lastIndex;
    }
    if (last < text.length) div.appendChild(document.createTextNode(text.slice(last)));
    return div;
  }

  function textNode(tid) {
    const box = el("div", "tbl");
    for (const lid of D.texts[tid]) box.appendChild(lineNode(D.lines[lid]));
    return box;
  }

  let cur = 0;
  let view = "t";  // "t" the table, "s0".. a seat, "a" everything

  function panel(title, note, tid, frag, pic) {
    const p = el("div", "panel");
    p.appendChild(el("h3", "", title));
    if (note) p.appendChild(el("p", "note", note));
    if (pic !== undefined) {
      const d = el("div", "pic");
      d.innerHTML = D.pictures[pic].map((i) => D.pieces[i]).join("\n");
      p.appendChild(d);
    }
    if (frag !== undefined) { const h = el("div", "hook"); h.innerHTML = D.frags[frag]; p.appendChild(h); }
    const tids = [].concat(tid);
    if (pic !== undefined) {
      const det = el("details", "text-view");
      det.open = textOpen;
      det.addEventListener("toggle", () => { textOpen = det.open; });
      det.appendChild(el("summary", "", "Text view"));
      for (const t of tids) det.appendChild(textNode(t));
      p.appendChild(det);
    } else for (const t of tids) p.appendChild(textNode(t));
    return p;
  }

  let textOpen = false;
  function drawBoard(st) {
    const board = $("board");
    board.replaceChildren();
    const v = st.v, h = v.h || {}, pics = v.p || {};
    if (view === "a" && D.audited && pics.a !== undefined) {
      board.className = "single";
      board.appendChild(panel("Everything", "Every card face up, from the audit, every hand among them.",
        v.a, undefined, pics.a));
    } else if (view === "a" && D.audited) {
      board.className = "";
      D.names.forEach((name, s) => board.appendChild(panel(`${name}: every card`, "", v.a[s], h["a" + s])));
    } else if (view[0] === "s") {
      const s = +view.slice(1);
      board.className = "single";
      const note = D.audited ? `The table as ${D.names[s]} saw it.` :
        "Hidden cards stay hidden until the game is over and every seat has published its seed for the audit.";
      board.appendChild(panel(`${D.names[s]}'s view`, note, v.s[s], h["s" + s], pics["s" + s]));
    } else {
      board.className = "single";
      board.appendChild(panel("The table", "What everyone could see.", v.t, h.t, pics.t));
    }
  }

  function roundLabel(st) {
    if (cur === 0) return `Start \u00b7 step 1 of ${N}`;
    return `Round ${st.r}${st.p ? " (open)" : ""} \u00b7 step ${cur + 1} of ${N}`;
  }

  function drawEvents(st) {
    $("events-title").textContent = cur === 0 ? "The game is opened" : `Round ${st.r}` + (st.tm ? ` \u00b7 ${st.tm.replace("T", " ")}` : "");
    const ol = $("event-list");
    ol.replaceChildren();
    const faces = facesFor(st);
    let machine = 0;  // the protocol's bookkeeping (deck passes, key shares): counted on one line, in words
    for (const [seat, text, kind] of st.e) {
      if (kind === 1) { machine++; continue; }
      const li = richNode("li", kind === 2 ? "cheat" : kind === 3 ? "talk" : "", text, faces);
      li.style.setProperty("--c", seatColor(seat));
      ol.appendChild(li);
    }
    if (machine) ol.appendChild(el("li", "tech", `cards shuffled and dealt unseen (${machine} message${machine > 1 ? "s" : ""} between the machines)`));
    if (!st.e.length) ol.appendChild(el("li", "tech", "no event"));
    $("awaited").textContent = st.o ? "The game is over." :
      "Then awaited: " + (st.w.map((s) => D.names[s]).join(", ") || "nobody");
    $("files").textContent = st.f.length ? "Files: " + st.f.join(", ") : "";
  }

  // the faces of the refs a step's events mention, as known in the chosen view at that step
  function facesFor(st) {
    const k = st.v.k || {};
    return k[view === "a" ? "a" : view] || {};
  }

  // a card a view has not seen is said in words ("a face-down card", "the face-down Warlord"), never by its position
  // (duelmail.games.base.unseen_words does the same for the terminal and the mail); a seen one by its face
  const REFP = "[a-z]+[0-9]*(?:\\.[0-9]+)?#[0-9]+";
  const UNSEEN = [
    [new RegExp(`(${REFP})=((?:10|[2-9JQKAjqka])[SHDCshdc]|[Xx][RBrb])(?!\\w)`, "g"), (m, r, f) => faceWords(f.toUpperCase()), true],
    [new RegExp(`\\b(the|a|an|his|her|their|your) ([A-Z][a-z]+) (${REFP})(?![\\w#])`, "g"), (m, a, role, r) => `${a} face-down ${role}`],
    [new RegExp(`(${REFP}) \\(face[ -]down\\)`, "g"), () => "a face-down card"],
    [new RegExp(`(${REFP}) face[ -]down`, "g"), () => "a card face down"],
    [new RegExp(`(\\w)'s (${REFP})(?![\\w#])`, "g"), (m, w) => `${w}'s face-down card`],
    [new RegExp(`(?<![\\w#.])(${REFP})(?![\\w#])`, "g"), () => "a face-down card"],
  ];
  function unseen(text, faces) {
    for (const [re, to, always] of UNSEEN)  // a card played as a face is said by that face, seen or not
      text = text.replace(re, (...m) => { const ref = m.slice(1).find((g) => typeof g === "string" && g.includes("#"));
        return faces[ref] && !always ? m[0] : to(...m); });
    return text;
  }
  const RANKW = { J: "Jack", Q: "Queen", K: "King", A: "Ace" };
  function faceWords(tok) {
    if (tok[0] === "X") return `the ${tok[1] === "R" ? "red" : "black"} joker`;
    const rank = tok.slice(0, -1);
    return `the ${RANKW[rank] || rank} of ${SUIT[tok.slice(-1)]}`;
  }

  function richNode(tag, cls, text, faces) {
    const node = el(tag, cls);
    text = unseen(text, faces);
    let last = 0, m;
    TOK.lastIndex = 0;
    while ((m = TOK.exec(text)) !== null) {
      if (m.index > last) node.appendChild(document.createTextNode(text.slice(last, m.index)));
      if (m[3]) {  // a ref the view has seen (the others are words by now): its face, in words and drawn
        node.appendChild(document.createTextNode(faceWords(faces[m[3]])));
        const c = cardNode(faces[m[3]]); c.classList.add("mini"); node.appendChild(c);
      } else node.appendChild(document.createTextNode(m[0]));
      last = TOK.lastIndex;
    }
    if (last < text.length) node.appendChild(document.createTextNode(text.slice(last)));
    return node;
  }

  // the moves up to the current step, in words; a later one only as its round ("R25 ..."): the list never tells
  // the future, nor names a card before the table shows it
  let labelled = [];  // what each row shows now: "" (not yet drawn), "later", or the view it was drawn for
  function labelMoves(force) {
    D.steps.forEach((st, i) => {
      const li = tlItems[i], later = i > cur, want = later ? "later" : view;
      if (!force && labelled[i] === want) return;
      labelled[i] = want;
      const end = i === N - 1 && !shown;
      li.replaceChildren(el("b", "", i === 0 ? "start" : "R" + st.r));
      li.appendChild(later ? el("span", "later", " ...") : end ? el("span", "", " the end (result hidden)") :
        richNode("span", "", " " + st.x, facesFor(st)));
      li.classList.toggle("later", later);
      stripItems[i].classList.toggle("later", later);
      li.title = stripItems[i].title = later ? (i === 0 ? "start" : "round " + st.r) :
        (i === 0 ? "start" : "round " + st.r) + ": " + (end ? "the end" : li.textContent.replace(/^\S+ /, ""));
    });
  }

  const tlItems = [], stripItems = [];
  function buildTimeline() {
    const ol = $("tl"), strip = $("strip");
    D.steps.forEach((st, i) => {
      const play = st.e.filter((e) => e[2] !== 1);
      const kind = st.e.some((e) => e[2] === 2) ? "cheat" : play.length || i === 0 ? "" : "tech";
      const li = el("li", kind);
      li.dataset.i = i;
      li.addEventListener("click", () => go(i));
      ol.appendChild(li);
      tlItems.push(li);
      const tick = el("i", kind || "play");
      if (play.length) tick.style.setProperty("--c", seatColor(play[0][0]));
      tick.addEventListener("click", () => go(i));
      strip.appendChild(tick);
      stripItems.push(tick);
    });
  }

  function buildViews() {
    const box = $("views");
    const add = (key, label, title) => {
      const b = el("button", "", label);
      b.dataset.view = key;
      b.title = title;
      b.addEventListener("click", () => setView(key));
      box.appendChild(b);
    };
    add("t", "Table", "What everyone could see (t)");
    D.names.forEach((n, s) => add("s" + s, n, `The table as ${n} saw it (${s + 1})`));
    if (D.audited) add("a", "Everything", "Every hand and every card, from the audit (a)");
  }

  // a view as the address names it: t, a, s0.., a seat's number as its key (1 = the first seat) or its name
  function viewKey(v) {
    if (v === "t" || (v === "a" && D.audited)) return v;
    let s = /^s\d+$/.test(v) ? +v.slice(1) : /^\d+$/.test(v) ? +v - 1 : D.names.indexOf(v);
    return s >= 0 && s < D.names.length ? "s" + s : null;
  }

  function setView(key) {
    if (key === "a" && !D.audited) return;
    view = key;
    labelMoves(true);
    draw();
  }

  let timer = null;
  function autoplay(on) {
    if (timer !== null) { clearInterval(timer); timer = null; }
    if (on && cur === N - 1) go(0);
    if (on) timer = setInterval(() => { if (cur >= N - 1) autoplay(false); else go(cur + 1); }, 1200);
    const b = $("play");
    b.textContent = timer !== null ? "\u275A\u275A Pause" : "\u25B6 Play";
    b.setAttribute("aria-label", timer !== null ? "Pause" : "Play");
    document.body.dataset.playing = timer !== null ? "1" : "0";
  }

  function saveArchive() {
    const blob = new Blob([D.archive], { type: "text/plain" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${D.game}-${D.gid.slice(0, 12)}.txt`;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 0);
  }

  function go(i) {
    cur = Math.max(0, Math.min(N - 1, i));
    draw();
  }

  let prevCur = -1;
  function draw() {
    const st = D.steps[cur];
    $("round-label").textContent = roundLabel(st);
    $("slider").value = cur;
    $("first").disabled = $("prev").disabled = cur === 0;
    $("next").disabled = $("last").disabled = cur === N - 1;
    for (const b of $("views").children) b.classList.toggle("on", b.dataset.view === view);
    drawBoard(st);
    drawEvents(st);
    if (prevCur >= 0) { tlItems[prevCur].classList.remove("cur"); stripItems[prevCur].classList.remove("cur"); }
    tlItems[cur].classList.add("cur");
    stripItems[cur].classList.add("cur");
    labelMoves(false);
    if (prevCur !== cur) {  // the moves list scrolls itself to the current row, never the page (a phone stays on the table)
      const ol = $("tl"), box = ol.getBoundingClientRect(), at = tlItems[cur].getBoundingClientRect();
      if (at.top < box.top || at.bottom > box.bottom)
        ol.scrollTop += at.top - box.top - (ol.clientHeight - at.height) / 2;
    }
    if (cur === N - 1) showResult();
    prevCur = cur;
    document.body.dataset.step = cur;
    document.body.dataset.round = st.r;
    document.body.dataset.view = view;
    try { history.replaceState(null, "", `#step=${cur}&view=${view}`); } catch (e) { /* file: URLs may refuse */ }
  }

  function header() {
    $("game-title").textContent = D.title;
    $("players").textContent = D.names.join(" vs ");
    $("gid").textContent = "game " + D.gid.slice(0, 12);
    if (D.over) {  // no spoiler: the result shows at the last step, or when asked for
      const b = el("button", "", "Show result");
      b.id = "show-result";
      b.title = "The game is over: show who won";
      b.addEventListener("click", showResult);
      $("outcome").replaceChildren(b);
    } else $("outcome").textContent = "In progress";
    const v = D.verdict, badge = $("verdict");
    badge.textContent = "Audit: " + v.word;
    badge.className = "badge " + (v.word === "PASSED" ? "ok" : v.word === "CHEATING FOUND" ? "bad" : "wait");
    badge.addEventListener("click", () => $("audit").scrollIntoView({ behavior: "smooth" }));
    $("audit-word").textContent = {
      "PASSED": "Every deck pass was recomputed from the published seeds, every card opened, every claim and " +
        "sealed choice checked: the game was played fairly.",
      "CHEATING FOUND": "The audit caught cheating:",
      "AWAITING SEEDS": "The game is over; the audit runs once every seat has published its per-game seed.",
      "IN PROGRESS": "The game is still being played; hidden cards are shown once it is over and audited.",
    }[v.word] || v.word;
    const ul = $("audit-lines");
    for (const line of v.lines) ul.appendChild(el("li", /^CHEAT/.test(line) ? "cheat" : "", line));
    for (const line of v.void) ul.appendChild(el("li", "", "set aside by the fold: " + line));
    if (D.decks.length) {
      $("decks").hidden = false;
      const list = $("deck-list");
      for (const d of D.decks) {
        const row = el("div", "deck");
        row.appendChild(el("b", "", `${d.id} (${d.cards.length})`));
        for (const c of d.cards) row.appendChild(cardNode(c === "??" ? "[??]" : c));
        list.appendChild(row);
      }
    }
  }

  let shown = !D.over;
  function showResult() {
    if (shown) return;
    shown = true;
    $("outcome").textContent = D.outcome;
    labelMoves(true);
  }

  function init() {
    header();
    buildViews();
    buildTimeline();
    $("play").addEventListener("click", () => autoplay(timer === null));
    $("save").addEventListener("click", saveArchive);
    const slider = $("slider");
    slider.max = N - 1;
    slider.addEventListener("input", () => go(+slider.value));
    $("first").addEventListener("click", () => go(0));
    $("prev").addEventListener("click", () => go(cur - 1));
    $("next").addEventListener("click", () => go(cur + 1));
    $("last").addEventListener("click", () => go(N - 1));
    document.addEventListener("keydown", (e) => {
      const k = e.key;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.target === slider && /^(Arrow|Home$|End$|Page)/.test(k)) return;  // the slider moves itself
      if (k === "ArrowRight" || k === "n") go(cur + 1);
      else if (k === "ArrowLeft" || k === "b") go(cur - 1);
      else if (k === "Home") go(0);
      else if (k === "End") go(N - 1);
      else if (k === " " && e.target.tagName !== "BUTTON") autoplay(timer === null);
      else if (k === "t") setView("t");
      else if (k === "a") setView("a");
      else if (/^[1-9]$/.test(k) && +k <= D.names.length) setView("s" + (+k - 1));
      else return;
      e.preventDefault();
    });
    const hash = new URLSearchParams(location.hash.slice(1));  // #step=12&view=s1, either alone
    if (/^\d+$/.test(hash.get("step") || "")) cur = Math.min(N - 1, +hash.get("step"));
    const wanted = viewKey(hash.get("view") || "");
    if (wanted) view = wanted;
    draw();
  }
  init();
  window.duelmailReplay = { go, setView, get step() { return cur; }, get view() { return view; }, steps: N };
})();
</script>
</body>
</html>
"""
