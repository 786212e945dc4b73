// The web page in Firefox (Debian's firefox-esr, headless), driven over WebDriver BiDi, the
// standard protocol stock Firefox speaks (Playwright needs its own patched Firefox). Opens the
// page from file:// with a query, waits for a console tag (default TS_SHOT), saves the page's
// screenshots (TS_SHOT) and the browser's own, and prints what the page reported. A manual
// check (not part of make test: firefox-esr is a large install). Headless Firefox has no WebGL
// on a machine without a GPU; with a DISPLAY (xvfb-run) it runs windowed on Mesa's software GL.
//   usage: node --experimental-websocket firefox.mjs PAGE.html OUT_DIR QUERY [WAIT_TAG] [TIMEOUT_S]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [page_file, out, query = '', wait_tag = 'TS_SHOT', timeout_s = '120'] = process.argv.slice(2);
if (!page_file || !out) {
  console.error('usage: node --experimental-websocket firefox.mjs PAGE.html OUT_DIR QUERY [WAIT_TAG] [TIMEOUT_S]');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-firefox-'));
// Headless Firefox on a machine without a GPU blocks WebGL unless told to use its software path.
fs.writeFileSync(path.join(profile, 'user.js'),
                 'user_pref("webgl.force-enabled", true);\nuser_pref("webgl.disabled", false);\n');
const port = 9222 + Math.floor(Math.random() * 500);
const ff = spawn(process.env.FIREFOX || 'firefox-esr',
                 [...(process.env.DISPLAY ? [] : ['--headless']), '--no-remote', '--profile', profile,
                  '--width', '1280', '--height', '720', `--remote-debugging-port=${port}`, 'about:blank'],
                 { stdio: ['ignore', 'ignore', 'pipe'] });
const result = { browser: 'firefox', first_frame_ms: null, shots: [], errors: [] };
const finish = (code) => {
  fs.writeFileSync(path.join(out, 'firefox.result.json'), JSON.stringify(result, null, 1));
  console.log(JSON.stringify(result));
  ff.kill();
  fs.rmSync(profile, { recursive: true, force: true });
  process.exit(code);
};
setTimeout(() => { result.errors.push(`timed out waiting for ${wait_tag}`); finish(1); },
           Number(timeout_s) * 1000);

// Wait for the remote agent, then open a BiDi session.
let ws = null;
for (let i = 0; i < 100 && !ws; ++i) {
  await new Promise((r) => setTimeout(r, 300));
  try {
    const sock = new WebSocket(`ws://127.0.0.1:${port}/session`);
    await new Promise((resolve, reject) => { sock.onopen = resolve; sock.onerror = reject; });
    ws = sock;
  } catch (e) { /* not up yet */ }
}
if (!ws) { result.errors.push('Firefox did not open its remote agent'); finish(1); }
let next_id = 1;
const pending = new Map();
const handlers = [];
ws.onmessage = (m) => {
  const msg = JSON.parse(m.data);
  if (msg.id && pending.has(msg.id)) {
    pending.get(msg.id)(msg);
    pending.delete(msg.id);
  } else if (msg.type === 'event') {
    for (const h of handlers) h(msg);
  }
};
const send = (method, params = {}) => new Promise((resolve, reject) => {
  const id = next_id++;
  pending.set(id, (msg) => (msg.type === 'error' ? reject(new Error(`${method}: ${msg.message}`)) : resolve(msg.result)));
  ws.send(JSON.stringify({ id, method, params }));
});

let done;
const reached = new Promise((r) => { done = r; });
handlers.push((msg) => {
  if (msg.method !== 'log.entryAdded') return;
  const t = String(msg.params.text || '');
  const sp = t.indexOf(' ');
  const tag = sp < 0 ? t : t.slice(0, sp);
  const rest = sp < 0 ? '' : t.slice(sp + 1);
  if (tag === 'TS_FIRST_FRAME') result.first_frame_ms = Number(rest);
  else if (tag === 'TS_SHOT') {
    const s = JSON.parse(rest);
    const file = path.join(out, 'firefox-' + path.basename(s.path));
    fs.writeFileSync(file, Buffer.from(s.png, 'base64'));
    fs.writeFileSync(file + '.json', JSON.stringify(s.drawn, null, 1));
    result.shots.push(file);
  } else if (tag === 'TS_LESSONS') result.lessons = rest;
  else if (tag === 'TS_BENCH') result.bench = JSON.parse(rest);
  else if (tag === 'TS_ERROR') result.errors.push(rest);
  if (tag === wait_tag || tag === 'TS_ERROR') done();
});

try {
  await send('session.new', { capabilities: {} });
  await send('session.subscribe', { events: ['log.entryAdded'] });
  const tree = await send('browsingContext.getTree', {});
  const context = tree.contexts[0].context;
  await send('browsingContext.setViewport', { context, viewport: { width: 1280, height: 720 } });
  const url = pathToFileURL(path.resolve(page_file)).href + (query ? '?' + query : '');
  await send('browsingContext.navigate', { context, url, wait: 'complete' });
  await reached;
  const shot = await send('browsingContext.captureScreenshot', { context });
  fs.writeFileSync(path.join(out, 'firefox.page.png'), Buffer.from(shot.data, 'base64'));
  result.page_png = path.join(out, 'firefox.page.png');
} catch (e) {
  result.errors.push(String(e && e.message ? e.message : e));
}
finish(result.errors.length ? 1 : 0);
