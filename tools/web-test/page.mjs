// Opens tokenscope's one-file web page from file:// in Debian's Chromium (headless, no network),
// with URL parameters, and records what the page reports on the console (lines starting with
// TS_): screenshots the page took (PNG + drawn-items JSON), the first frame's time, the in-page
// bench and the lessons' checks. Waits for a given tag (default TS_QUIT), then takes the
// browser's own screenshot of the page. Used by tests/web/smoke.sh.
// With TAP=kind:label in the environment (a drawn item of the last screenshot, such as
// button:step), the page is opened on a touch screen, that item is tapped once the tag came,
// and the page's state after the tap is recorded (TS_STATE); with KEY=name too, that key is
// pressed after the tap and the state recorded again. CLICK=kind:label does the same
// with the mouse; with FILE=path too, the click must open a file chooser, which gets that file,
// and the state is recorded once the page has read it.
// With AGAIN=query, the page is opened a second time in the same browser profile (same local
// storage) after the first visit, with that query, and waits for the tag again: what a student
// sees when opening the file the next day.
//   usage: node page.mjs PAGE.html OUT_DIR NAME QUERY WIDTHxHEIGHT [WAIT_TAG] [TIMEOUT_S]
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [page_file, out, name, query, size, wait_tag = 'TS_QUIT', timeout_s = '120'] =
  process.argv.slice(2);
if (!page_file || !out || !name || query === undefined || !size) {
  console.error('usage: node page.mjs PAGE.html OUT_DIR NAME QUERY WIDTHxHEIGHT [WAIT_TAG] [TIMEOUT_S]');
  process.exit(2);
}
const [width, height] = size.split('x').map(Number);
fs.mkdirSync(out, { recursive: true });
const log = [];
const tap = process.env.TAP || '';
const result = { name, query, first_frame_ms: null, shots: [], bench: null, lessons: [], state: null,
                 lessons_summary: null, quit: null, errors: [] };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu-sandbox', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync',
         '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
         '--allow-file-access-from-files'],
});
let done;
const finished = new Promise((resolve) => { done = resolve; });
try {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1,
                                             hasTouch: !!tap });
  // Nothing may leave the machine: any request that is not file: or data: or blob: fails the test.
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (u.startsWith('file:') || u.startsWith('data:') || u.startsWith('blob:')) return route.continue();
    result.errors.push('network request: ' + u);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => { result.errors.push('page error: ' + e.message); done(); });
  page.on('console', (msg) => {
    const t = msg.text();
    log.push(t.length > 400 ? t.slice(0, 400) + '…' : t);
    const sp = t.indexOf(' ');
    const tag = sp < 0 ? t : t.slice(0, sp);
    const rest = sp < 0 ? '' : t.slice(sp + 1);
    if (tag === 'TS_FIRST_FRAME') result.first_frame_ms = Number(rest);
    else if (tag === 'TS_SHOT') {
      const s = JSON.parse(rest);
      const base = path.join(out, name + '-' + path.basename(s.path));
      fs.writeFileSync(base, Buffer.from(s.png, 'base64'));
      fs.writeFileSync(base + '.json', JSON.stringify(s.drawn, null, 1));
      result.shots.push(base);
      result.last_drawn = s.drawn;
    } else if (tag === 'TS_BENCH') result.bench = JSON.parse(rest);
    else if (tag === 'TS_LESSON') result.lessons.push(rest);
    else if (tag === 'TS_LESSONS') result.lessons_summary = rest;
    else if (tag === 'TS_QUIT') result.quit = Number(rest);
    else if (tag === 'TS_STATE') result.state = JSON.parse(rest);
    else if (tag === 'TS_ERROR') result.errors.push(rest);
    if (tag === wait_tag || tag === 'TS_ERROR') done();
  });
  const url = pathToFileURL(path.resolve(page_file)).href + (query ? '?' + query : '');
  const t0 = Date.now();
  await page.goto(url);
  const timer = setTimeout(() => { result.errors.push(`timed out after ${timeout_s} s waiting for ${wait_tag}`); done(); },
                           Number(timeout_s) * 1000);
  await finished;
  clearTimeout(timer);
  const click = process.env.CLICK || '';
  if ((tap || click) && result.last_drawn) {
    const [kind, label] = (tap || click).split(':');
    const it = result.last_drawn.items.find((i) => i.kind === kind && i.label === label);
    if (!it) result.errors.push(`nothing drawn as ${tap || click} to press`);
    else {
      const [x, y, w, h] = it.rect;
      const chooser = process.env.FILE ? page.waitForEvent('filechooser', { timeout: 10000 }) : null;
      if (tap) await page.touchscreen.tap(x + w / 2, y + h / 2);
      else {
        await page.mouse.move(x + w / 2, y + h / 2);
        await page.waitForTimeout(100);
        await page.mouse.down();
        await page.waitForTimeout(100);
        await page.mouse.up();
      }
      if (chooser) {
        try {
          await (await chooser).setFiles(process.env.FILE);
          await page.waitForTimeout(3000);  // read, copied into the page, loaded
        } catch (e) {
          result.errors.push('no file chooser opened: ' + e.message);
        }
      }
      await page.waitForTimeout(500);
      if (process.env.KEY) {  // then a key on the keyboard (KEY=ArrowRight: one more step)
        await page.evaluate(() => window.Module.ccall('ts_web_report_state', null, [], []));
        await page.waitForTimeout(200);
        result.state_before_key = result.state;
        // Held for 150 ms as a person would: Dear ImGui 1.86 reads a key's state once per frame,
        // so a press and release between two frames (a busy machine) would go unseen.
        await page.keyboard.down(process.env.KEY);
        await page.waitForTimeout(150);
        await page.keyboard.up(process.env.KEY);
        await page.waitForTimeout(500);
      }
      await page.evaluate(() => window.Module.ccall('ts_web_report_state', null, [], []));
      await page.waitForTimeout(200);
      if (!result.state) result.errors.push('the page did not report its state after the tap');
    }
  }
  if (process.env.AGAIN !== undefined) {
    await page.waitForTimeout(3000);  // the app saves changed settings every two seconds
    const again = new Promise((resolve) => { done = resolve; });
    result.visits = 2;
    await page.goto(pathToFileURL(path.resolve(page_file)).href + '?' + process.env.AGAIN);
    const t2 = setTimeout(() => { result.errors.push('second visit timed out'); done(); },
                          Number(timeout_s) * 1000);
    await again;
    clearTimeout(t2);
  }
  delete result.last_drawn;
  result.seconds = (Date.now() - t0) / 1000;
  await page.screenshot({ path: path.join(out, name + '.page.png') });
  result.page_png = path.join(out, name + '.page.png');
} catch (e) {
  result.errors.push('driver: ' + (e && e.message ? e.message : e));
} finally {
  await browser.close();
}
fs.writeFileSync(path.join(out, name + '.console.txt'), log.join('\n') + '\n');
fs.writeFileSync(path.join(out, name + '.result.json'), JSON.stringify(result, null, 1));
console.log(JSON.stringify({ ...result, lessons: result.lessons.length }));
process.exit(result.errors.length ? 1 : 0);
