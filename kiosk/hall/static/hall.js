// The hall's live board and overlays: plain JavaScript, no build step.
// One WebSocket (/live): a snapshot, then every change, and the server's heartbeat each
// second. Heard nothing for 3 s: the link is dead, whatever the socket says; reconnect.
// Every change is numbered: the snapshot says the number it is current to, the heartbeat
// the last one sent. A change missed (a number skipped, or the heartbeat past the last one
// heard) and the page says "stale" and takes a fresh snapshot: a heartbeat alone never
// keeps it "live".
"use strict";
const hall = {
  tables: {}, calls: {}, decisions: {}, offset: 0, director: false, lastHeard: 0, ws: null,
  broker: false, only: null, onrender: null, n: null, missed: 0, token: null,
};
// The officials decide a protest within the hour (law 151 c).
const HOUR_S = 3600;

function key(h, t) { return h + "/" + t; }
function serverNow() { return Date.now() / 1000 + hall.offset; }
function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;",
    '"': "&quot;", "'": "&#39;"})[c]);
}
function clockText(s) {
  s = Math.max(0, s);
  if (s < 20) return s.toFixed(1);
  const m = Math.floor(s / 60), r = Math.floor(s % 60);
  return m + ":" + String(r).padStart(2, "0");
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") +
    location.host + "/live");
  hall.ws = ws;
  ws.onmessage = ev => {
    if (hall.ws !== ws) return;  // a link given up: what it still brings is not taken
    hall.lastHeard = Date.now();
    take(JSON.parse(ev.data));
  };
  ws.onclose = () => { if (hall.ws === ws) { setLink(false); setTimeout(connect, 1000); } };
}

function dropLink() {
  const ws = hall.ws;
  hall.ws = null;
  if (ws) { ws.onclose = null; try { ws.close(); } catch (e) { /* already gone */ } }
  setLink(false);
  setTimeout(connect, 500);
}

// A change missed: stale until a fresh snapshot is in.
function resync() {
  hall.missed += 1;
  document.body.dataset.missed = String(hall.missed);
  const ws = hall.ws;
  hall.ws = null; hall.n = null;
  if (ws) { ws.onclose = null; try { ws.close(); } catch (e) { /* already gone */ } }
  setLink("stale");
  setTimeout(connect, 200);
}

// up: true (current), false (the link lost) or "stale" (changes missed, catching up).
function setLink(up) {
  const el = document.getElementById("link");
  if (!el) return;
  const stale = up === "stale";
  const current = up === true;
  const ok = current && hall.broker;
  el.textContent = stale ? "stale: changes missed, catching up" : current ?
    (hall.broker ? "live" : "broker link down: tables not current") : "link lost: reconnecting";
  el.className = ok ? "ok" : "bad";
  document.body.dataset.link = stale ? "stale" : current ? "up" : "down";
  document.body.dataset.broker = ok ? "up" : "down";
}

function table(h, t) {
  const k = key(h, t);
  if (!hall.tables[k]) hall.tables[k] = {hall: h, table: t, status: null, state: null};
  return hall.tables[k];
}

function take(m) {
  if (m.type !== "snapshot" && hall.n === null) return;  // before the snapshot: nothing
  if (m.type === "hb") {
    if (m.n !== hall.n) { resync(); return; }  // changes sent that never came
  } else if (m.type !== "snapshot") {
    if (m.n !== hall.n + 1) { resync(); return; }  // one skipped
    hall.n = m.n;
  }
  if (m.type === "snapshot") {
    hall.n = m.n;
    hall.offset = m.now - Date.now() / 1000;
    hall.broker = m.broker;
    hall.director = !!m.director;
    hall.token = m.token || hall.token;
    if (!hall.director) hall.token = null;
    hall.tables = {}; hall.calls = {};
    for (const t of m.tables) hall.tables[key(t.hall, t.table)] = t;
    for (const c of m.calls) hall.calls[key(c.hall, c.table)] = c;
    setLink(true);
    document.body.dataset.director = hall.director ? "yes" : "no";
  } else if (m.type === "hb") {
    hall.offset = m.now - Date.now() / 1000;
    hall.broker = m.broker;
    setLink(true);
  } else if (m.type === "link") {
    hall.broker = m.broker; setLink(true);
  } else if (m.type === "status") {
    table(m.hall, m.table).status = m.status;
  } else if (m.type === "state") {
    const t = table(m.hall, m.table);
    t.state = m.state; t.received = m.received;
  } else if (m.type === "bad") {
    if (m.table) table(m.hall, m.table).bad = m.bad;
  } else if (m.type === "broken") {
    table(m.hall, m.table).broken = m.broken;
  } else if (m.type === "call") {
    hall.calls[key(m.hall, m.table)] = {hall: m.hall, table: m.table, ...m.call};
  } else if (m.type === "decision") {
    hall.decisions[key(m.hall, m.table)] = m.decision;
  } else if (m.type === "decided") {
    delete hall.decisions[key(m.hall, m.table)];
  } else if (m.type === "ack") {
    const c = hall.calls[key(m.hall, m.table)];
    if (c && c.id <= m.id) delete hall.calls[key(m.hall, m.table)];
  }
  render();
}

function tileBody(tile, age, running) {
  const g = tile.game;
  const el = (cls, text) => `<div class="${cls}">${esc(text)}</div>`;
  if (g === "carrom") {
    const p = tile.players || [];
    const sides = tile.sides || [];
    const won = sides.map(s => tile.games_won?.[s] ?? 0).join("-");
    const sc = sides.map(s => tile.score?.[s] ?? 0).join("-");
    let timer = "";
    if (tile.timer) {
      const left = tile.timer.running && running ? tile.timer.left - age : tile.timer.left;
      timer = tile.timer.kind + " " + clockText(left) + (tile.timer.running ? "" : " (held)");
    }
    const queen = tile.queen === null || tile.queen === undefined ? "" :
      "queen: " + String(tile.queen).replace(/_/g, " ") + (tile.queen_by ? " (" + tile.queen_by + ")" : "");
    // Won on the board with a protest waiting: no result is declared (law 150).
    const score = tile.winner ? "winner: " + tile.winner : tile.provisional_winner ?
      "won on the board: " + tile.provisional_winner + " (under protest: no result, law 150)" :
      "game " + (tile.game_no ?? "-") + " board " + (tile.board_no ?? "-") + ": " + sc;
    return el("players", p.join(" v ")) + el("games", "games " + won) +
      el("score", score) + el("queen", queen) + el("turn", tile.turn ? "turn: " + tile.turn : "") +
      el("timer", timer) + protestLines(tile, age ?? 0);
  }
  if (g === "backgammon") {
    const elapsed = running && tile.running ? age : 0;
    const delay = Math.max(0, (tile.delay ?? 0) - elapsed);
    const used = Math.max(0, elapsed - (tile.delay ?? 0));
    const banks = (tile.players || []).map(p => {
      const b = (tile.banks?.[p] ?? 0) - (p === tile.running ? used : 0);
      return (p === tile.running ? "▶ " : "") + p + " " + clockText(b);
    }).join("  ");
    const score = (tile.players || []).map(p => tile.score?.[p] ?? 0).join("-");
    return el("banks", banks) + el("delay", tile.running ? "delay " + clockText(delay) : "stopped") +
      el("score", "score " + score + " / " + tile.match_length +
        (tile.winner ? "  winner: " + tile.winner : "") + (tile.flagged ? "  flag: " + tile.flagged : ""));
  }
  if (g === "bhukhar") {
    const left = tile.running && running ? tile.left - age : tile.left;
    return el("round", "round " + tile.round) +
      el("timer", tile.time_called ? "time" : "left " + clockText(left)) +
      el("games", tile.games + " games");
  }
  return el("unknown", g);
}

// Each protest (laws 144-151): who, which board, the decision, or while it waits the minutes
// left of the officials' hour, counted down here from the tile's match time and its age.
function protestLines(tile, age) {
  let html = "";
  for (const p of tile.protests || []) {
    const board = p.board || [];
    let text = "protest by " + p.by + " against board " + board[1] + " of game " + board[0] + ": ";
    if (p.decision === "upheld") text += "upheld, the board is played again (law 151 a)";
    else if (p.decision === "rejected") text += "rejected, the result stands (law 151 b)";
    else if (p.t === null || p.t === undefined || tile.t === null || tile.t === undefined) {
      text += "waiting for the decision (law 150)";
    } else {
      const left = Math.max(0, p.t + HOUR_S - (tile.t + age));
      text += "waiting, " + Math.ceil(left / 60 - 1e-9) + " min left of the hour (law 151 c)";
    }
    if (p.words || p.receipt) text += " · “" + (p.words || "") + "” · fee receipt " + (p.receipt || "");
    html += `<div class="protest ${p.decision ? "decided" : "pending"}">${esc(text)}</div>`;
  }
  return html;
}

// The director's decision buttons, apart from the ticking rest (a rewrite swallows a tap).
function decideHtml(t, tile) {
  if (!tile || tile.game !== "carrom" || !tile.match) return "";
  const sent = hall.decisions[key(t.hall, t.table)];
  let html = "";
  for (const p of tile.protests || []) {
    if (p.decision) continue;
    const [g, b] = p.board || [];
    if (sent && sent.match === tile.match && sent.board[0] === g && sent.board[1] === b) {
      html += `<div class="sent">decision sent: ${sent.upheld ? "upheld" : "rejected"}, ` +
        `waiting for the table</div>`;
      continue;
    }
    if (!hall.director) continue;
    const data = `data-hall="${esc(t.hall)}" data-table="${esc(t.table)}" ` +
      `data-match="${esc(tile.match)}" data-game="${esc(g)}" data-board="${esc(b)}"`;
    html += `<div class="decide">board ${esc(b)} of game ${esc(g)}: ` +
      `<button class="decide" ${data} data-upheld="1">Uphold (law 151 a)</button> ` +
      `<button class="decide" ${data} data-upheld="0">Reject (law 151 b)</button></div>`;
  }
  return html;
}

function tileHtml(t) {
  const now = serverNow();
  const st = t.state;
  const tile = st ? st.tile : null;
  const hb = st ? st.heartbeat : 5;
  const age = st ? Math.max(0, now - st.wall) : null;
  // Silent for 1.5 x its keep-alive (and its heartbeat), by the hall's clock: offline now,
  // not when the broker gets round to its last will (seconds later, docs/hall.md).
  const quiet = st && st.keepalive ? 1.5 * Math.max(st.keepalive, hb) : 0;
  const silent = !!(st && quiet && t.received && now - t.received > quiet);
  const offline = t.status !== "online" || silent;
  // Not current while the page's link or the hall's broker link is down: nothing new can come.
  const stale = !st || age > hb + Math.max(1, hb / 2) || document.body.dataset.link !== "up" ||
    document.body.dataset.broker === "down";
  const call = hall.calls[key(t.hall, t.table)];
  const faults = tile && tile.faults && tile.faults.length ?
    tile.faults.map(f => f.message).join("; ") : "";
  let html = `<div class="head"><span class="name">${esc(t.table)}</span>` +
    `<span class="game">${esc(tile ? tile.game : "")}</span>` +
    `<span class="status">${silent && t.status === "online" ? "offline (silent)" :
      offline ? "offline" : stale ? "stale" : "online"}</span></div>`;
  html += `<div class="age">${age === null ? "no data" : "data " + Math.floor(age) + " s old"}</div>`;
  if (tile) html += tileBody(tile, age, !offline && !stale);
  if (faults) html += `<div class="faults">${esc(faults)}</div>`;
  if (t.broken) {
    html += `<div class="broken">chain broken at entry ${esc(t.broken.seq)}: ${esc(t.broken.reason)}</div>`;
  }
  if (t.bad) {
    html += `<div class="bad">bad data: ${esc(t.bad.count)} dropped (${esc(t.bad.reason)})</div>`;
  }
  // The call apart from the rest: the rest changes every second (the data's age, the
  // clocks), and rewriting the Acknowledge button with it could swallow a tap on it.
  let callHtml = "";
  if (call) {
    callHtml = `<div class="call">Director called${call.reason ? ": " + esc(call.reason) : ""}` +
      (hall.director ? ` <button class="ack" data-hall="${esc(t.hall)}" data-table="${esc(t.table)}"` +
       ` data-id="${call.id}">Acknowledge</button>` : "") + `</div>`;
  }
  const protesting = !!(tile && (tile.protests || []).some(p => !p.decision));
  return {html, callHtml, decide: decideHtml(t, tile), offline, stale, calling: !!call,
    protesting, game: tile ? tile.game : ""};
}

// Rewrites a part only when its text changed (what it was set to, not what the browser
// makes of it, which may differ and would rewrite it every time).
function setHtml(el, html) {
  if (el.lastHtml !== html) { el.innerHTML = html; el.lastHtml = html; }
}

function render() {
  const box = document.getElementById("tiles");
  if (!box) return;
  const filter = document.getElementById("filter")?.value || "";
  const keys = Object.keys(hall.tables).sort();
  const seen = new Set();
  for (const k of keys) {
    const t = hall.tables[k];
    if (hall.only && t.table !== hall.only) continue;
    let r;
    try {
      r = tileHtml(t);
    } catch (e) {  // whatever got through, one tile says so and the others go on
      r = {html: `<div class="head"><span class="name">${esc(t.table)}</span></div>` +
        `<div class="bad">bad data: cannot be shown</div>`, callHtml: "", decide: "",
        offline: false, stale: true, calling: false, protesting: false, game: ""};
    }
    if (filter && r.game !== filter) continue;
    const id = "tile-" + k.replace(/[^A-Za-z0-9_-]/g, "_");
    seen.add(id);
    let div = document.getElementById(id);
    if (!div) {
      div = document.createElement("div"); div.id = id; div.className = "tile"; box.appendChild(div);
      div.append(document.createElement("div"), document.createElement("div"),
        document.createElement("div"));
    }
    setHtml(div.children[0], r.html);
    setHtml(div.children[1], r.callHtml);
    setHtml(div.children[2], r.decide);
    div.dataset.table = t.table; div.dataset.game = r.game;
    div.dataset.state = r.offline ? "offline" : r.stale ? "stale" : "online";
    div.classList.toggle("calling", r.calling);
    div.classList.toggle("protesting", r.protesting);
  }
  for (const div of Array.from(box.children)) if (!seen.has(div.id)) div.remove();
  if (hall.onrender) hall.onrender();
}

document.addEventListener("click", async ev => {
  const b = ev.target.closest("button.ack");
  if (!b) return;
  const r = await fetch("/ack", {method: "POST", headers: posting(),
    body: JSON.stringify({hall: b.dataset.hall, table: b.dataset.table, id: +b.dataset.id})});
  if (!r.ok) alert(await r.text());
});

// The director's decision on a protest: asked again, then sent to the kiosk by the hall.
document.addEventListener("click", async ev => {
  const b = ev.target.closest("button.decide");
  if (!b) return;
  const upheld = b.dataset.upheld === "1";
  const what = upheld ? "Uphold: the board and every board after it are set aside and played again (law 151 a)" :
    "Reject: the result stands and is declared (law 151 b)";
  if (!confirm(what + "?")) return;
  const r = await fetch("/decide", {method: "POST", headers: posting(),
    body: JSON.stringify({hall: b.dataset.hall, table: b.dataset.table, match: b.dataset.match,
      board: [+b.dataset.game, +b.dataset.board], upheld})});
  if (!r.ok) alert(await r.text());
});

// A POST's headers: JSON, and the session's token (the hall refuses a POST without it).
function posting() {
  const headers = {"Content-Type": "application/json"};
  if (hall.token) headers["X-Tableside-Token"] = hall.token;
  return headers;
}

async function login(password) {
  const r = await fetch("/login", {method: "POST", headers: posting(),
    body: JSON.stringify({password})});
  if (!r.ok) { document.getElementById("login-error").textContent = await r.text(); return; }
  hall.token = (await r.json()).token || null;
  hall.director = true; document.body.dataset.director = "yes"; render();
}

function start() {
  connect();
  setInterval(() => {
    if (hall.ws && Date.now() - hall.lastHeard > 3000 && hall.lastHeard) { hall.lastHeard = 0; dropLink(); }
    render();
  }, 250);
}
