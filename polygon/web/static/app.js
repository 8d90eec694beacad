// Polygon's one script (no inline script anywhere: the Content-Security-Policy forbids it).
"use strict";

function replayKeys() {
  const turns = Array.from(document.querySelectorAll(".turns .turn"));
  if (!turns.length) return;
  let at = Math.max(0, turns.findIndex((t) => "#" + t.id === location.hash));
  const show = () => {
    turns.forEach((t, i) => t.classList.toggle("current", i === at));
    turns[at].scrollIntoView({ block: "nearest" });
    history.replaceState(null, "", "#" + turns[at].id);
  };
  show();
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement) return;
    if (e.key === "ArrowRight" || e.key === "j") { at = Math.min(turns.length - 1, at + 1); show(); }
    if (e.key === "ArrowLeft" || e.key === "k") { at = Math.max(0, at - 1); show(); }
  });
}

function liveRuns() {
  const table = document.querySelector("table[data-live]");
  if (!table) return;
  const tick = async () => {
    const rows = await (await fetch(table.dataset.live)).json();
    for (const r of rows) {
      const cell = document.querySelector(`[data-testid="calls-${CSS.escape(r.run_id)}"]`);
      if (cell) cell.textContent = String(r.calls);
    }
    if (rows.some((r) => !r.finished)) setTimeout(tick, 2000);
  };
  setTimeout(tick, 2000);
}

function promptLint() {
  const area = document.getElementById("prompt-text");
  if (!area) return;
  const scores = document.getElementById("scores");
  const marks = document.getElementById("marks");
  const highlight = document.getElementById("highlight");
  const status = document.getElementById("lint-status");
  let timer = null;
  const render = (result, text) => {
    scores.replaceChildren();
    for (const [axis, value] of Object.entries(result.scores || {})) {
      const row = scores.insertRow();
      row.insertCell().textContent = axis;
      const cell = row.insertCell();
      cell.textContent = value.toFixed(2);
      cell.className = "num";
      cell.dataset.testid = "score-" + axis;
    }
    marks.replaceChildren();
    const spans = [];
    for (const m of result.marks || []) {
      const li = document.createElement("li");
      li.textContent = `${m.line}:${m.column} ${m.axis} [${m.tier}, ${m.strength.toFixed(2)}] ${m.reason}`;
      marks.append(li);
      spans.push([m.start, m.end]);
    }
    // the prompt as text nodes with <mark> around marked spans (never as HTML)
    highlight.replaceChildren();
    spans.sort((a, b) => a[0] - b[0]);
    let at = 0;
    for (const [s, e] of spans) {
      if (e <= at) continue;
      const from = Math.max(s, at);
      highlight.append(document.createTextNode(text.slice(at, from)));
      const mark = document.createElement("mark");
      mark.textContent = text.slice(from, e);
      highlight.append(mark);
      at = e;
    }
    highlight.append(document.createTextNode(text.slice(at)));
  };
  const read = async (tiers) => {
    const text = area.value;
    status.textContent = tiers === "rules" ? "" : "reading…";
    const response = await fetch("/api/lint", {
      method: "POST",
      // the per-server token: only this page can read it, so no other site can ask us to lint
      headers: { "content-type": "application/json", "x-polygon-token": area.dataset.token },
      body: JSON.stringify({ text, tiers }),
    });
    const result = await response.json();
    render(result, text);
    status.textContent = !response.ok ? result.error
      : tiers === "rules" ? "rules tier (live)" : "all offline tiers";
  };
  area.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => read("rules"), 250); });
  document.getElementById("deeper").addEventListener("click", (e) => read(e.target.dataset.tiers));
  read("rules");
}

document.addEventListener("DOMContentLoaded", () => { replayKeys(); liveRuns(); promptLint(); });
