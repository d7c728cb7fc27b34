// The browser table of spades_ai. It holds no rule of the game: the server says what you may
// do (the legal bids, the cards raised, how many cards to pass), every click is sent to it, and
// a refusal comes back with the engine's reason. The page only draws and paces the agents: it
// asks for one agent action at a time (POST .../step) and waits PACE ms between them. The turn
// timer is the server's too: the page counts down the time_left it is sent and then asks the
// server (POST .../step) to play Normal's choice for you.
"use strict";
const $ = (id) => document.getElementById(id);
const PACE = Math.max(0, Number(new URLSearchParams(location.search).get("pace") ?? 700));
const LEVEL_NAMES = { easy: "Easy", normal: "Normal", hard: "Hard", crazy: "Crazy" };
const TIMER_NAMES = { 7: "Fast", 15: "Standard", 30: "Slow", 60: "Very slow" };
const TABLE_FIELDS = new Set(["players", "teams", "must_win"]); // in the Table fieldset, not the house rules
let S = null;          // the match as the server last sent it
let settings = null;   // the settings form (GET /api/settings)
let shownHand = null;  // the hand number on the table (a new one shows the last score sheet first)
let timer = null;
let countdown = null;  // the turn timer's ticking (setInterval)
let chosen = new Set(); // the cards chosen to pass
let log = [];

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw Object.assign(new Error(data.error || `HTTP ${r.status}`), { status: r.status });
  return data;
}

function show(section) {
  for (const id of ["setup", "table", "sheet", "results"]) $(id).hidden = id !== section;
}

function matchId() {
  const m = /^#m=([A-Za-z0-9_-]{22})$/.exec(location.hash);
  return m ? m[1] : null;
}

// -- settings ---------------------------------------------------------------------------
function buildSettings() {
  const level = $("level");
  level.textContent = "";
  for (const l of settings.levels) level.add(new Option(LEVEL_NAMES[l] || l, l, false, l === settings.level));
  const targets = $("targets");
  targets.querySelectorAll("label").forEach((e) => e.remove());
  const target = settings.rules.find((f) => f.name === "target_score").value;
  for (const t of settings.targets) {
    const label = document.createElement("label");
    label.innerHTML = `<input type="radio" name="target" value="${t ?? "off"}"> ${t === null ? "no target (max hands)" : `${t} points`} `;
    label.querySelector("input").checked = t === target || (t === settings.targets[0] && !settings.targets.includes(target));
    targets.append(label);
  }
  const timers = $("timer");
  timers.textContent = "";
  for (const t of settings.timers) {
    timers.add(new Option(t === null ? "off" : `${t} s (${TIMER_NAMES[t] || t})`, t === null ? "off" : String(t), false, t === settings.timer));
  }
  const field = (name) => settings.rules.find((f) => f.name === name);
  const players = $("players");
  players.textContent = "";
  for (const t of settings.tables) players.add(new Option(String(t.players), String(t.players), false, t.players === field("players").value));
  players.onchange = () => buildTeams(null);
  buildTeams(field("teams").value);
  $("must-win").checked = field("must_win").value;
  const box = $("rules");
  box.textContent = "";
  for (const f of settings.rules) {
    if (f.name === "target_score" || TABLE_FIELDS.has(f.name)) continue;
    const label = document.createElement("label");
    label.title = f.doc;
    let input;
    if (f.kind === "bool") {
      label.className = "check";
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = f.value;
      label.append(input, f.name.replaceAll("_", " "));
    } else if (f.kind === "choice") {
      input = document.createElement("select");
      for (const c of f.choices) input.add(new Option(c, c, false, c === f.value));
      label.append(f.name.replaceAll("_", " "), input);
    } else {
      input = document.createElement("input");
      input.type = "text";
      input.inputMode = "numeric";
      input.value = f.value === null ? "off" : String(f.value);
      label.append(f.name.replaceAll("_", " ") + (f.optional ? " (a number, or off)" : ""), input);
    }
    input.dataset.field = f.name;
    input.dataset.kind = f.kind;
    const doc = document.createElement("small");
    doc.textContent = f.doc;
    label.append(doc);
    box.append(label);
  }
}

// the sides the chosen number of players may play in (the server's list); a new number takes its default
function buildTeams(value) {
  const table = settings.tables.find((t) => String(t.players) === $("players").value);
  const teams = $("teams");
  teams.textContent = "";
  const chosen = table.teams.includes(value) ? value : table.default;
  for (const t of table.teams) teams.add(new Option(t === "pairs" ? "in pairs" : "solo", t, false, t === chosen));
}

function formRules() {
  const target = document.querySelector("input[name=target]:checked").value;
  const rules = { target_score: target === "off" ? null : Number(target), players: Number($("players").value),
                  teams: $("teams").value, must_win: $("must-win").checked };
  for (const input of $("rules").querySelectorAll("[data-field]")) {
    const name = input.dataset.field, kind = input.dataset.kind;
    if (kind === "bool") rules[name] = input.checked;
    else if (kind === "choice") rules[name] = settings.rules.find((f) => f.name === name).choices.find((c) => String(c) === input.value);
    else {
      const text = input.value.trim().toLowerCase();
      rules[name] = text === "off" || text === "none" ? null : /^-?\d+$/.test(text) ? Number(text) : text;
    }
  }
  return rules;
}

async function startMatch(event) {
  event.preventDefault();
  $("setup-error").textContent = "";
  try {
    const t = $("timer").value;
    S = await api("POST", "/api/matches", { level: $("level").value, rules: formRules(), timer: t === "off" ? null : Number(t) });
  } catch (e) {
    $("setup-error").textContent = e.message;
    return;
  }
  localStorage.setItem("spades_ai.match", S.id);
  history.replaceState(null, "", `#m=${S.id}`); // no hashchange: the match is here already
  log = [];
  shownHand = S.hand.hand_no;
  enterTable();
}

// -- the table --------------------------------------------------------------------------
function bidText(bid, blind) {
  if (bid === null) return "–";
  if (bid === 0) return blind ? "blind nil" : "nil";
  return String(bid);
}

function seatName(s) {
  const level = S.seat_levels[s];
  return S.names[s] + (level === null ? "" : ` (${LEVEL_NAMES[level] || level})`);
}

function drawScore() {
  const target = S.rules.target_score ? `, ${S.rules.target_score} to win` : `, ${S.rules.max_hands} hands`;
  const sb = S.teams.map((t, i) => `${t} ${S.scores[i]} (${S.bag_count[i]} bags)`).join(" · ");
  $("scoreboard").textContent = `${sb}${target}`;
}

// one box a seat, placed around the trick where the server says (S.places on an S.grid x S.grid
// felt: you at the bottom, clockwise; made again when the number of seats changes)
function seatBoxes() {
  const felt = $("felt"), trick = $("trick"), n = S.grid;
  const boxes = [...felt.querySelectorAll(".seat")];
  if (boxes.length === S.names.length) return boxes;
  boxes.forEach((b) => b.remove());
  felt.style.gridTemplateColumns = n === 3 ? "1fr 1.3fr 1fr" : `repeat(${n}, 1fr)`;
  document.body.classList.toggle("wide", n > 3);
  trick.style.gridRow = trick.style.gridColumn = `2 / ${n}`;
  trick.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  trick.style.gridTemplateRows = `repeat(${n}, auto)`;
  return S.names.map((_, s) => {
    const box = document.createElement("div");
    box.className = "seat" + (s === 0 ? " you" : "");
    box.id = `seat-${s}`;
    box.dataset.seat = s;
    [box.style.gridRow, box.style.gridColumn] = S.places[s];
    felt.append(box);
    return box;
  });
}

function drawSeats() {
  const h = S.hand;
  seatBoxes().forEach((box, s) => {
    box.classList.toggle("act", h.to_act === s);
    const bid = bidText(h.bids[s], h.blind[s]);
    const [tt, contract] = h.contracts[S.side_of[s]];
    box.innerHTML = "";
    const who = document.createElement("div");
    who.className = "who";
    who.textContent = seatName(s);
    if (h.dealer === s) who.insertAdjacentHTML("beforeend", '<span class="badge" title="the dealer">D</span>');
    if (h.to_act === s) who.insertAdjacentHTML("beforeend", '<span class="badge">to act</span>');
    const meta = document.createElement("div");
    meta.textContent = `bid ${bid} · tricks ${h.tricks_won[s]}/${bid} · ${h.held[s]} cards`;
    const teamLine = document.createElement("div");
    teamLine.className = "note";
    teamLine.textContent = `team tricks ${tt}/${contract}`;
    box.append(who, meta);
    if (S.partner !== null) box.append(teamLine); // solo, a side's tricks are the seat's own
  });
}

function drawTrick() {
  const h = S.hand, box = $("trick");
  let cards = h.trick, note = "", done = false;
  if (!cards.length && h.last_trick && h.phase === "playing") {
    cards = h.last_trick.cards;
    note = `${S.names[h.last_trick.winner]} won trick ${h.last_trick.trick_no}`;
    done = true;
  } else if (h.phase === "playing") {
    note = `trick ${h.trick_no + 1}` + (h.spades_broken ? " · spades broken" : "");
  } else note = h.phase;
  box.classList.toggle("done", done);
  const places = S.places, mid = (S.grid + 1) / 2;
  box.innerHTML = cards
    .map((c) => `<span class="slot s${c.seat}${done && c.seat === h.last_trick.winner ? " won" : ""}" data-seat="${c.seat}" `
      + `style="grid-row:${places[c.seat][0]};grid-column:${places[c.seat][1]}">${c.html}</span>`)
    .join("");
  const n = document.createElement("span");
  n.className = "note";
  n.style.gridRow = n.style.gridColumn = String(mid);
  n.textContent = note;
  box.append(n);
}

function drawStatus() {
  const h = S.hand;
  let text;
  if (h.your_turn) text = `Your turn: ${h.question}`;
  else if (h.phase === "passing") text = `${S.names[h.to_act]} is choosing cards to pass…`;
  else text = `${S.names[h.to_act]} is ${h.phase === "bidding" ? "bidding" : "playing"}…`;
  if (h.received.length) text += `  (${S.names[S.partner]} passed you ${h.received.join(" ")})`;
  const ranOut = S.lines.find((l) => l.startsWith("Time ran out"));
  if (ranOut) text = `${ranOut}  ${text}`;
  $("status").textContent = text;
}

// the turn timer: count down the server's time_left, then ask the server to play for you
function startClock() {
  clearInterval(countdown);
  const left = S.hand.your_turn ? S.hand.time_left : null;
  $("clock").hidden = left === null || left === undefined;
  if ($("clock").hidden) return;
  const end = performance.now() + 1000 * left;
  const tick = () => {
    const secs = Math.max(0, Math.ceil((end - performance.now()) / 1000));
    $("clock").textContent = `Timer: ${secs} s left`;
    if (performance.now() >= end) {
      clearInterval(countdown);
      step();
    }
  };
  tick();
  countdown = setInterval(tick, 250);
}

function drawPanel() {
  const h = S.hand, panel = $("panel");
  panel.textContent = "";
  const button = (label, action, id) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (id) b.id = id;
    b.addEventListener("click", () => send(typeof action === "function" ? action() : action));
    panel.append(b);
  };
  if (!h.your_turn) return;
  if (h.blind_nil_question) {
    button("Blind nil", "blind nil", "blind-nil");
    button("Look at my cards", "look", "look");
  } else if (h.phase === "bidding") {
    for (const b of h.legal_bids) button(b === 0 ? "Nil" : String(b), b === 0 ? "nil" : String(b), `bid-${b}`);
  } else if (h.phase === "passing") {
    button(`Pass ${h.pass_count} card${h.pass_count === 1 ? "" : "s"} to ${S.names[S.partner]}`, () => [...chosen].join(" "), "pass");
  }
}

function drawHand() {
  const h = S.hand, box = $("hand");
  box.textContent = "";
  for (const c of h.cards) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "card" + (c.legal ? " legal" : "") + (chosen.has(c.card) ? " chosen" : "");
    b.dataset.card = c.card;
    b.innerHTML = c.html;
    b.addEventListener("click", () => clickCard(c.card, b));
    box.append(b);
  }
}

function drawLog() {
  log = log.concat(S.lines.filter((l) => l.trim() && !l.includes("\n"))).slice(-8); // the sheet has its own screen
  $("log").innerHTML = "";
  for (const line of log) {
    const li = document.createElement("li");
    li.textContent = line;
    $("log").append(li);
  }
}

function drawReplays() {
  const box = $("replays");
  box.textContent = S.hand.hand_no ? "Replay a finished hand: " : "";
  for (let k = 0; k < S.hand.hand_no; k++) {
    const a = document.createElement("a");
    a.href = `/matches/${S.id}/replay/${k}?review=1`;
    a.target = "_blank";
    a.rel = "noopener";
    a.textContent = `hand ${k + 1}`;
    box.append(a, " ");
  }
}

function draw() {
  document.body.dataset.draws = Number(document.body.dataset.draws || 0) + 1; // tells a test the page moved on
  drawScore();
  drawSeats();
  drawTrick();
  drawStatus();
  drawPanel();
  drawHand();
  drawLog();
  drawReplays();
  startClock();
}

function clickCard(card, button) {
  if (S.hand.your_turn && S.hand.phase === "passing") {
    if (chosen.has(card)) chosen.delete(card);
    else chosen.add(card);
    button.classList.toggle("chosen", chosen.has(card));
    return;
  }
  send(card);
}

async function send(action) {
  $("message").textContent = "";
  clearInterval(countdown);
  let next;
  try {
    next = await api("POST", `/api/matches/${S.id}/action`, { action });
  } catch (e) {
    $("message").textContent = e.message; // the engine's reason; nothing changed
    return;
  }
  chosen = new Set();
  S = next;
  after(0);
}

// -- pacing the agents -------------------------------------------------------------------
function after(delay) {
  clearTimeout(timer);
  if (S.over) return showResults();
  if (S.hand.hand_no !== shownHand) return showSheet(S.sheets[S.sheets.length - 1]);
  draw();
  if (S.hand.your_turn) return;
  // a trick just finished: leave it on the table a little longer
  const pause = !S.hand.trick.length && S.hand.last_trick ? 2 * PACE : delay;
  timer = setTimeout(step, pause);
}

async function step() {
  try {
    S = await api("POST", `/api/matches/${S.id}/step`);
  } catch (e) {
    $("message").textContent = e.message;
    if (e.status === 409) return setTimeout(() => load(S.id), S.hand.time_left === null ? 0 : 500); // another tab moved on, or the clocks differ
    return;
  }
  after(PACE);
}

function showSheet(sheet) {
  clearTimeout(timer);
  clearInterval(countdown);
  drawScore();
  drawLog();
  $("sheet-title").textContent = `Score sheet, hand ${sheet.hand_no + 1}`;
  $("sheet-body").innerHTML = sheet.html;
  $("sheet-replay").href = `/matches/${S.id}/replay/${sheet.hand_no}?review=1`;
  show("sheet");
}

async function nextHand() {
  shownHand = S.hand.hand_no;
  log = [];
  try {
    S = await api("GET", `/api/matches/${S.id}`); // your first turn's clock starts now, not behind the sheet
  } catch (e) {
    $("message").textContent = e.message;
  }
  S.lines = [];
  show("table");
  after(PACE);
}

function showResults() {
  clearInterval(countdown);
  drawScore();
  $("result-line").textContent = S.result_line;
  const st = S.stats;
  const blank = S.teams.slice(1).map(() => "");
  const rows = [
    ["hands played", st.hands, ...blank],
    ["contracts made", ...S.teams.map((_, k) => `${st.contracts_made[k]} of ${st.contracts_bid[k]}`)],
    ["bags taken", ...st.bags],
    ["your number bids made", `${st.your_bids_made} of ${st.your_number_bids}`, ...blank],
    ["your nils made", `${st.your_nils_made} of ${st.your_nils}`, ...blank],
    ["tricks you took", st.your_tricks, ...blank],
  ];
  $("stats").innerHTML = "";
  const head = $("stats").insertRow();
  head.append(document.createElement("th"));
  for (const t of S.teams) {
    const th = document.createElement("th");
    th.textContent = t;
    head.append(th);
  }
  for (const r of rows) {
    const tr = $("stats").insertRow();
    for (const v of r) tr.insertCell().textContent = String(v);
  }
  const all = $("all-sheets");
  all.innerHTML = "";
  for (const sh of S.sheets) {
    const h3 = document.createElement("h3");
    h3.textContent = `Hand ${sh.hand_no + 1}: ${sh.points.join(" to ")} `;
    const a = document.createElement("a");
    a.href = `/matches/${S.id}/replay/${sh.hand_no}?review=1`;
    a.target = "_blank";
    a.textContent = "replay";
    h3.append(a);
    all.append(h3);
    all.insertAdjacentHTML("beforeend", sh.html);
  }
  $("save-link").href = `/api/matches/${S.id}/save`;
  show("results");
}

function enterTable() {
  show("table");
  after(PACE);
}

async function load(id) {
  try {
    S = await api("GET", `/api/matches/${id}`);
  } catch (e) {
    $("setup-error").textContent = e.status === 404 ? "That match is not on this server." : e.message;
    history.replaceState(null, "", location.pathname + location.search);
    return setup();
  }
  localStorage.setItem("spades_ai.match", id);
  // a hand not yet begun after a finished one: show that hand's sheet first
  shownHand = !S.over && S.hand.fresh && S.sheets.length ? S.hand.hand_no - 1 : S.over ? null : S.hand.hand_no;
  enterTable();
}

function setup() {
  show("setup");
  const last = localStorage.getItem("spades_ai.match");
  $("resume").hidden = !last;
  $("resume-button").onclick = () => {
    location.hash = `m=${last}`;
  };
}

async function init() {
  settings = await api("GET", "/api/settings");
  buildSettings();
  $("settings").addEventListener("submit", startMatch);
  $("next-hand").addEventListener("click", nextHand);
  $("new-match").addEventListener("click", () => {
    localStorage.removeItem("spades_ai.match");
    history.replaceState(null, "", location.pathname + location.search);
    setup();
  });
  window.addEventListener("hashchange", () => (matchId() ? load(matchId()) : setup()));
  const id = matchId();
  if (id) await load(id);
  else setup();
}

init();
