// The page's loader: unpacks the gzip'd WebAssembly module and data package embedded in the
// page (the browser's own DecompressionStream), turns the URL's parameters into the app's
// options, puts the saved settings and a URL script into the page's file system, then starts
// the emscripten runtime; touches become mouse and wheel events. URL parameters: script (lines of --script verbs), lesson (a file in
// lessons/), theme, font-size, prompt, model, no-settings, bench, check-lessons.
(async () => {
  const status = document.getElementById('status');
  const say = (text) => { status.textContent = text; };
  const unpack = async (id) => {
    const text = document.getElementById(id).textContent;
    const bin = atob(text);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; ++i) bytes[i] = bin.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  };
  let wasm, data;
  try {
    [wasm, data] = await Promise.all([unpack('ts-wasm'), unpack('ts-data')]);
  } catch (e) {
    say('This browser cannot unpack tokenscope (' + e + '). Use a current Chrome, Edge or Firefox.');
    console.log('TS_ERROR unpack: ' + e);
    return;
  }
  const q = new URLSearchParams(location.search);
  const args = [];
  const script = q.get('script');
  if (script !== null) args.push('--script', '/page.script');
  const lesson = q.get('lesson');
  if (lesson) args.push('--lesson', lesson.includes('/') ? lesson : '/lessons/' + lesson);
  for (const k of ['theme', 'font-size', 'prompt', 'model']) {
    if (q.get(k) !== null) args.push('--' + k, q.get(k));
  }
  if (q.get('no-settings') !== null) args.push('--no-settings');
  if (q.get('bench') !== null) args.push('--web-bench');
  if (q.get('check-lessons') !== null) args.push('--web-check-lessons');
  const canvas = document.getElementById('canvas');
  window.Module = {
    canvas,
    arguments: args,
    wasmBinary: wasm,
    getPreloadedPackage: () => data.buffer,
    print: (t) => console.log(t),
    printErr: (t) => console.warn(t),
    preRun: [() => {
      const FS = Module.FS;
      FS.mkdirTree('/settings');
      try {
        const saved = localStorage.getItem('tokenscope.settings');
        if (saved) FS.writeFile('/settings/tokenscope.json', saved);
      } catch (e) { /* no local storage (some file:// setups): defaults */ }
      if (script !== null) FS.writeFile('/page.script', script);
    }],
    onRuntimeInitialized: () => { status.remove(); canvas.focus(); },
    onAbort: (what) => { say('tokenscope stopped: ' + what); console.log('TS_ERROR abort: ' + what); },
  };
  // Touch (tablets): emscripten's GLFW takes touches for mouse buttons but not their position.
  // One finger becomes the mouse (move, press, drag, release at the finger); two fingers moving
  // become the scroll wheel. Caught on the window before the canvas's own listeners see them.
  let last = null;
  const mouse = (type, t) => canvas.dispatchEvent(new MouseEvent(type, {
    clientX: t.clientX, clientY: t.clientY, button: 0, buttons: type === 'mouseup' ? 0 : 1,
    bubbles: true, cancelable: true }));
  const onTouch = (e) => {
    if (e.target !== canvas) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    const t = e.touches[0] || e.changedTouches[0];
    if (e.touches.length >= 2) {
      const y = (e.touches[0].clientY + e.touches[1].clientY) / 2;
      if (last !== null) canvas.dispatchEvent(new WheelEvent('wheel', {
        deltaY: last - y, deltaMode: 0, clientX: t.clientX, clientY: t.clientY, bubbles: true }));
      last = y;
      return;
    }
    last = null;
    if (e.type === 'touchstart') { mouse('mousemove', t); mouse('mousedown', t); }
    else if (e.type === 'touchmove') mouse('mousemove', t);
    else mouse('mouseup', t);
  };
  for (const type of ['touchstart', 'touchmove', 'touchend', 'touchcancel'])
    window.addEventListener(type, onTouch, { capture: true, passive: false });
  const js = document.createElement('script');
  js.textContent = document.getElementById('ts-js').textContent;
  document.body.appendChild(js);
})();
