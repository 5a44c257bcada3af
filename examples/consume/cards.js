// The page's script: subscribe to /events with omnimessage/consume and draw the render model as
// nested cards (a card per origin chain; open segments grow in place until their complete message
// replaces them). Every text goes into the page as textContent, never as markup.
import { RenderModel, subscribe } from "omnimessage/consume";

const model = new RenderModel();
const root = document.getElementById("root");
const status = document.getElementById("status");
const stats = { events: 0, reconnects: 0, resyncs: 0 };
let drawn = -1;
let scheduled = false;
let failed = false;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function row(cls, label, body) {
  const r = el("div", cls);
  r.append(el("span", "label", label), el("span", "body", body));
  return r;
}

function drawMessage(raw, msg) {
  const p = msg.payload ?? {};
  let r;
  if (msg.type === "session_meta") r = row("msg event", "session", `${p.model_id} · ${p.session_id}`);
  else if (msg.type === "event_msg") {
    const detail = p.status ?? p.decision ?? (p.type === "token_usage" ? `${p.request?.total} tokens` : "");
    r = row("msg event", "event", `${p.type}${detail ? ` · ${detail}` : ""}`);
  } else if (p.type === "text") r = row(`msg text ${p.role}`, p.role === "user" ? (p.sender ?? "user") : "assistant", p.text);
  else if (p.type === "thinking") r = row("msg thinking", p.fidelity ? "thinking ✓sig" : "thinking", p.thinking);
  else if (p.type === "tool_call") r = row("msg tool", `call ${p.name}`, p.arguments);
  else if (p.type === "tool_call_output") r = row("msg tool", "output", p.output);
  else r = row("msg", p.type ?? String(msg.type), "");
  r.dataset.raw = raw;
  r.dataset.type = msg.type === "session_meta" ? "session_meta" : String(p.type);
  return r;
}

function drawCard(card) {
  const c = el("section", card.origin.length === 0 ? "card root" : "card");
  c.dataset.origin = JSON.stringify(card.origin);
  c.append(el("div", "hd", card.origin.length === 0 ? "main session" : `subagent · ${card.origin[card.origin.length - 1]}`));
  const items = el("div", "items");
  for (const it of card.items) {
    if (it.kind === "message") {
      const m = drawMessage(it.raw, it.message);
      m.dataset.seq = String(it.seq); // its place in arrival order (the trace's order)
      items.append(m);
    }
    else if (it.kind === "card") items.append(drawCard(it.card));
    else {
      const s = it.segment;
      const label = s.type.replace("partial_", "").replace("_", " ") + (s.name ? ` ${s.name}` : "");
      const r = row(`seg ${s.type} ${s.open ? "open" : "closed"}`, label, s.text);
      r.dataset.segment = s.type;
      items.append(r);
    }
  }
  c.append(items);
  return c;
}

function draw() {
  scheduled = false;
  if (model.version !== drawn) {
    drawn = model.version;
    root.replaceChildren(drawCard(model.root));
  }
  if (!failed) status.textContent = `live · ${stats.events} events · ${stats.reconnects} reconnects · ${stats.resyncs} resyncs`;
}

function schedule() {
  if (!scheduled) {
    scheduled = true;
    requestAnimationFrame(draw);
  }
}

try {
  for await (const ev of subscribe(new URL("/events", location.href), { reconnect: { delayMs: 500 } })) {
    if (ev.kind === "message") stats.events++;
    else if (ev.kind === "reconnect") stats.reconnects++;
    else if (ev.kind === "resync") stats.resyncs++;
    model.apply(ev);
    schedule();
  }
} catch (err) {
  failed = true;
  status.className = "error";
  status.textContent = `stopped: ${err.name}: ${err.message}`;
}
