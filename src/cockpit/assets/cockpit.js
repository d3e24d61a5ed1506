// The closing cockpit's page (src/cockpit): redraws the live part from the server's event stream,
// counts down to the close, and sends the director's acts. Every URL is relative: it keeps the token.
const live = document.getElementById('live');
const toast = document.getElementById('toast');
const ask = document.getElementById('ask');
const askWhat = document.getElementById('ask-what');
const askWhy = document.getElementById('ask-why');
const text = JSON.parse(document.body.dataset.text || '{}');
let version = Number(live.dataset.version || 0);
let clock = null; // { now, closes, rate, at }

function say(message, bad) {
  toast.textContent = message;
  toast.className = bad ? 'bad' : 'ok';
  clearTimeout(say.timer);
  say.timer = setTimeout(() => { toast.textContent = ''; toast.className = ''; }, bad ? 12000 : 3000);
}

function readClock() {
  const el = document.querySelector('.countdown');
  if (el && !clock) clock = { now: Number(el.dataset.now), closes: Number(el.dataset.closes), rate: 1, at: Date.now() };
}

function tick() {
  readClock();
  const left = document.getElementById('left');
  if (!left || !clock) return;
  const now = clock.now + (Date.now() - clock.at) * clock.rate;
  let s = Math.round((clock.closes - now) / 1000);
  if (s <= 0) { left.textContent = ''; return; }
  const h = Math.floor(s / 3600); s -= h * 3600;
  const m = Math.floor(s / 60); s -= m * 60;
  left.textContent = `${h ? `${h}:` : ''}${String(m).padStart(h ? 2 : 1, '0')}:${String(s).padStart(2, '0')}`;
}

function draw(view) {
  if (view.version <= version) return;
  version = view.version;
  live.dataset.version = String(version);
  live.innerHTML = view.html; // escaped by the server (hono/html); the CSP allows no inline script
  clock = { now: view.now, closes: view.closes, rate: view.rate, at: Date.now() };
  tick();
}

function connect() {
  const events = new EventSource('events');
  events.addEventListener('view', (e) => draw(JSON.parse(e.data)));
  events.addEventListener('open', () => { if (toast.className === 'bad' && toast.dataset.lost) { say(''); delete toast.dataset.lost; } });
  events.addEventListener('error', () => { toast.dataset.lost = '1'; say(text.disconnected, true); });
}

async function post(path, body) {
  const res = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
  const answer = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Error(answer.error || res.statusText);
  return answer;
}

/** Asks in the dialog; resolves with what was typed (or '' with no field), null when cancelled. */
function question(message, field) {
  askWhat.textContent = message;
  askWhy.value = '';
  askWhy.parentElement.hidden = !field;
  ask.returnValue = '';
  ask.showModal();
  if (field) askWhy.focus();
  return new Promise((resolve) => {
    ask.addEventListener('close', () => resolve(ask.returnValue === 'ok' ? askWhy.value.trim() : null), { once: true });
  });
}

document.addEventListener('click', async (e) => {
  const button = e.target.closest('button[data-act]');
  if (!button) return;
  const act = button.dataset.act;
  try {
    if (act === 'copy') {
      const area = document.getElementById('bbcode');
      try { await navigator.clipboard.writeText(area.value); } catch { area.select(); document.execCommand('copy'); }
      say(text.copied);
      return;
    }
    if (act === 'accept' || act === 'reject') {
      const why = await question(text.askRule.replace('{verb}', text[act]).replace('{pid}', button.dataset.pid), true);
      if (why === null) return;
      if (!why) { say(text.needWhy, true); return; }
      await post('api/rule', { verb: act, pid: Number(button.dataset.pid), why });
    } else if (act === 'undo') {
      await post('api/undo', { id: Number(button.dataset.id) });
    } else if (act === 'confirm' || act === 'dismiss') {
      const note = await question(text.askCard.replace('{verb}', text[act]).replace('{id}', button.dataset.card), true);
      if (note === null) return;
      await post('api/card', { id: button.dataset.card, status: act === 'confirm' ? 'confirmed' : 'dismissed', note });
    } else if (act === 'publish') {
      if ((await question(text.confirmPublish, false)) === null) return;
      button.disabled = true;
      const r = await post('api/publish', {});
      say(`${text.done} ${r.url}`);
      return;
    }
    say(text.done);
  } catch (err) {
    say(err.message, true);
  }
});

setInterval(tick, 1000);
tick();
connect();
