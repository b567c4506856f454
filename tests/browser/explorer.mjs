// The web explorer in a real browser: playwright-core drives Debian's chromium
// (headless, a fresh profile) against `pawntb serve --port 0`, and every value
// the page shows is checked against the server's JSON API.
//
// Usage: node tests/browser/explorer.mjs PAWNTB [OUTPUT_DIR]
//   PAWNTB      the pawntb executable
//   OUTPUT_DIR  where explorer.png (the 4x4 start) is saved; the executable's
//               directory by default
// Environment: PAWNTB_CHROMIUM, the browser (default /usr/bin/chromium).
// Exit status: 0 passed, 1 failed, 77 skipped (no chromium or no node_modules).

import {spawn, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import {fileURLToPath} from 'node:url';

const SKIP = 77;
// Guards against a hang, not measures of speed: each step waits for what it
// expects to appear; the limits only end a test that would wait forever.
const TOTAL_SECONDS = 480;
const STEP_TIMEOUT_MS = 60000;
const sourceDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const chromiumPath = process.env.PAWNTB_CHROMIUM ?? '/usr/bin/chromium';
// Headless in a container: no sandbox (root has none), no GPU, no /dev/shm
// limit, and nothing that reaches the network.
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-extensions',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--metrics-recording-only',
];

const [pawntb, outputArgument] = process.argv.slice(2);
if (!pawntb) {
  console.error('usage: node explorer.mjs PAWNTB [OUTPUT_DIR]');
  process.exit(2);
}
const outputDir = path.resolve(outputArgument ?? path.dirname(pawntb));
const started = Date.now();

if (!fs.existsSync(chromiumPath)) {
  console.log(`SKIPPED: no browser at ${chromiumPath} (tools/install-deps.sh installs chromium)`);
  process.exit(SKIP);
}
let chromium;
try {
  ({chromium} = await import('playwright-core'));
} catch {
  console.log(
      'SKIPPED: tests/browser/node_modules lacks playwright-core ' +
          '(tools/test.sh runs npm ci --prefix tests/browser, which needs the npm registry)',
  );
  process.exit(SKIP);
}

// ---- the server ------------------------------------------------------------

let server = null;
let browser = null;
let workDir = null;

function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => server.kill('SIGKILL'), 5000);
    server.once('exit', (code, signal) => {
      clearTimeout(hard);
      resolve({code, signal});
    });
    server.kill('SIGTERM');
  });
}

// Starts the server and resolves to its URL, read from its first stdout line.
function startServer(tableArgs) {
  server = spawn(pawntb, ['serve', '--port', '0', ...tableArgs], {
    cwd: sourceDir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer =
        setTimeout(() => reject(new Error('the server printed no URL within 10 s')), 10000);
    server.once('error', (e) => reject(new Error(`cannot start ${pawntb}: ${e.message}`)));
    server.once(
        'exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
    readline.createInterface({input: server.stdout}).once('line', (line) => {
      clearTimeout(timer);
      const match = /listening on (http:\/\/\S+?)\/?$/.exec(line);
      if (match)
        resolve(match[1]);
      else
        reject(new Error(`unexpected first line from the server: ${line}`));
    });
  });
}

// Both tables: the committed ones from data/ when the 3x3 table is there,
// else the 4x4 one and a freshly generated 3x3 one.
function tableArguments() {
  if (fs.existsSync(path.join(sourceDir, 'data/3x3-k3.pawntb'))) return [];
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawntb-browser-'));
  const small = path.join(workDir, '3x3-k3.pawntb');
  const made = spawnSync(pawntb, ['generate', '--rows', '3', '--cols', '3', '--output', small], {
    encoding: 'utf8',
    timeout: STEP_TIMEOUT_MS,
  });
  if (made.status !== 0) throw new Error(`pawntb generate failed: ${made.stderr}`);
  return ['--table', path.join(sourceDir, 'data/4x4-k4.pawntb'), '--table', small];
}

// ---- checks ----------------------------------------------------------------

let base = '';

async function api(pathAndQuery) {
  const response = await fetch(base + pathAndQuery, {signal: AbortSignal.timeout(STEP_TIMEOUT_MS)});
  return {status: response.status, body: await response.json()};
}

async function valueOf(position) {
  const {status, body} = await api(`/api/v1/position?position=${encodeURIComponent(position)}`);
  if (status !== 200) throw new Error(`the API refused ${position}: ${body.error}`);
  return body;
}

async function apiError(position) {
  const {status, body} = await api(`/api/v1/position?position=${encodeURIComponent(position)}`);
  if (status !== 400) throw new Error(`expected the API to refuse ${position}, got ${status}`);
  return body.error;
}

// The status line the issue asks for: "White to move: white wins in 7 plies".
function expectedStatus(v) {
  const side = v.to_move.charAt(0).toUpperCase() + v.to_move.slice(1);
  if (v.plies === 0) return `${side} to move: ${v.winner} has won`;
  return `${side} to move: ${v.winner} wins in ${v.plies} ${v.plies === 1 ? 'ply' : 'plies'}`;
}

// A board as rows of characters from the top ('.' empty), to edit, and back to text.
const grid = (position) => position.split(' ')[0]
                               .replace(/\d/g, (n) => '.'.repeat(Number(n)))
                               .split('/')
                               .map((r) => [...r]);
const text = (rows, turn) =>
    `${rows.map((r) => r.join('').replace(/\.+/g, (e) => e.length)).join('/')} ${turn}`;

// A position's squares as {square: 'P' | 'p'}, from its text.
function piecesOf(position) {
  const rows = grid(position);
  const pieces = {};
  rows.forEach((row, r) => row.forEach((c, f) => {
    if (c !== '.') pieces[`${String.fromCharCode(97 + f)}${rows.length - r}`] = c;
  }));
  return pieces;
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

async function status(page) { return page.locator('[data-testid="status"]').textContent(); }

// Waits until the page shows `position` with its status line and pieces.
async function expectShown(page, position) {
  const v = await valueOf(position);
  const want = expectedStatus(v);
  try {
    await page.waitForFunction(
        ([p, s]) => document.querySelector('[data-testid="position"]').value === p &&
            document.querySelector('[data-testid="status"]').textContent === s &&
            !document.body.dataset.loading,
        [v.position, want],
        {timeout: STEP_TIMEOUT_MS},
    );
  } catch {
    const box = await page.locator('[data-testid="position"]').inputValue();
    throw new Error(
        `expected ${v.position} "${want}", the page shows ${box} "${await status(page)}"`);
  }
  const shown = await page.$$eval(
      '[data-piece]',
      (pieces) => Object.fromEntries(
          pieces.map((p) => [p.closest('[data-square]').dataset.square, p.dataset.piece])),
  );
  check(
      JSON.stringify(Object.entries(shown).sort()) ===
          JSON.stringify(Object.entries(piecesOf(v.position)).sort()),
      `the board of ${v.position} shows ${JSON.stringify(shown)}`,
  );
  const squares = await page.locator('[data-square]').count();
  check(
      squares === v.geometry.rows * v.geometry.cols,
      `${squares} squares for ${v.geometry.rows}x${v.geometry.cols}`);
  const url = new URL(page.url());
  check(
      url.searchParams.get('position') === v.position,
      `the URL ${page.url()} does not carry ${v.position}`);
  return v;
}

// Waits until the page shows `error` (the API's words) in its error box.
async function waitForError(page, error) {
  try {
    await page.waitForFunction(
        (e) => document.querySelector('[data-testid="error"]').textContent === e, error,
        {timeout: STEP_TIMEOUT_MS});
  } catch {
    const shown = await page.locator('[data-testid="error"]').textContent();
    throw new Error(`expected the error "${error}", the page shows "${shown}"`);
  }
  check(await page.isVisible('[data-testid="error"]'), `the error "${error}" is hidden`);
}

// The listed moves: winning ones (for the side to move) first, each group in
// the API's order (best first), each with its plies badge.
async function expectMoves(page, v) {
  const listed = async (id) => page.$$eval(
      `[data-testid="${id}"] [data-uci]`,
      (moves) => moves.map((m) => `${m.dataset.uci} ${m.querySelector('.badge').textContent}`),
  );
  const describe = (moves) => moves.map((m) => `${m.uci} ${m.plies}`);
  const winning = describe(v.moves.filter((m) => m.winner === v.to_move));
  const losing = describe(v.moves.filter((m) => m.winner !== v.to_move));
  const [shownWinning, shownLosing] = [await listed('winning'), await listed('losing')];
  check(
      JSON.stringify(shownWinning) === JSON.stringify(winning),
      `winning moves ${shownWinning}, API ${winning}`);
  check(
      JSON.stringify(shownLosing) === JSON.stringify(losing),
      `losing moves ${shownLosing}, API ${losing}`);
}

// ---- the steps -------------------------------------------------------------

async function run(page, tables) {
  const big = tables.find((t) => t.geometry.rows === 4 && t.geometry.cols === 4);
  const small = tables.find((t) => t.geometry.rows === 3 && t.geometry.cols === 3);
  check(big && small, `the server lists ${tables.map((t) => t.name)}, not both 3x3 and 4x4`);
  const steps = [];
  const step = (name, body) => steps.push([name, body]);

  let start;
  step('the page shows the 4x4 start with its value and moves', async () => {
    await page.goto(`${base}/`, {timeout: STEP_TIMEOUT_MS});
    start = await expectShown(page, big.start);
    await expectMoves(page, start);
    const selected = await page.locator('[data-testid="table-select"]').inputValue();
    check(selected === big.name, `the selector shows ${selected}`);
  });

  step('hovering a move highlights its squares; screenshot of the start', async () => {
    const best = start.moves[0].uci;
    await page.hover(`[data-uci="${best}"]`);
    const from = await page.getAttribute(`[data-square="${best.slice(0, 2)}"]`, 'class');
    const to = await page.getAttribute(`[data-square="${best.slice(2)}"]`, 'class');
    check(/hover-from/.test(from) && /hover-to/.test(to), `hover classes: ${from} / ${to}`);
    fs.mkdirSync(outputDir, {recursive: true});
    await page.screenshot({path: path.join(outputDir, 'explorer.png')});
    await page.mouse.move(0, 0);
  });

  step('space plays the best move to the end, each status as the API says', async () => {
    let v = start;
    let plies = 0;
    while (v.moves.length > 0) {
      await page.keyboard.press('Space');
      v = await expectShown(page, v.moves[0].position);
      await expectMoves(page, v);
      plies += 1;
    }
    check(
        plies === start.plies, `the game took ${plies} plies, the start's value is ${start.plies}`);
    check(/ has won$/.test(await status(page)), `the end reads "${await status(page)}"`);
    const bars = await page.locator('[data-testid="chart"] .bar').count();
    check(bars === plies + 1, `the chart has ${bars} bars for ${plies + 1} positions`);
    const colours = await page.$$eval(
        '[data-testid="chart"] .bar',
        (b) => b.map((g) => (g.classList.contains('white') ? 'white' : 'black')),
    );
    check(
        colours.every((c) => c === start.winner),
        `chart colours ${colours}, winner ${start.winner}`);
  });

  step('undo and redo (buttons and arrow keys)', async () => {
    const line = start.line;
    const positions = [start.position];
    for (const uci of line) {
      const v = await valueOf(positions.at(-1));
      positions.push(v.moves.find((m) => m.uci === uci).position);
    }
    await page.click('[data-testid="undo"]');
    await expectShown(page, positions.at(-2));
    await page.keyboard.press('ArrowLeft');
    await expectShown(page, positions.at(-3));
    await page.click('[data-testid="redo"]');
    await expectShown(page, positions.at(-2));
    await page.keyboard.press('ArrowRight');
    await expectShown(page, positions.at(-1));
    check(await page.isDisabled('[data-testid="redo"]'), 'redo is enabled at the end of the game');
    // Space on the focused redo button plays the best move, not the button.
    await page.click('[data-testid="undo"]');
    await page.keyboard.press('Space');
    await expectShown(page, positions.at(-1));
  });

  step('a pawn then its target square plays that move; back and forward', async () => {
    await page.click('[data-testid="start"]');
    await expectShown(page, start.position);
    const move = start.moves.at(-1);  // the worst move: not the one space would play
    await page.click(`[data-square="${move.uci.slice(0, 2)}"]`);
    await page.click(`[data-square="${move.uci.slice(2)}"]`);
    const after = await expectShown(page, move.position);
    const reply = after.moves[0];
    await page.click(`[data-uci="${reply.uci}"]`);
    await expectShown(page, reply.position);
    await page.goBack({timeout: STEP_TIMEOUT_MS});
    await expectShown(page, move.position);
    await page.goBack({timeout: STEP_TIMEOUT_MS});
    await expectShown(page, start.position);
    await page.goForward({timeout: STEP_TIMEOUT_MS});
    await expectShown(page, move.position);
  });

  step('the editor: squares, side to move, mirror, swap colours, clear, start', async () => {
    await page.click('[data-testid="start"]');
    await expectShown(page, start.position);
    let rows = grid(start.position);
    // Empty a1; a black pawn on a black pawn removes it (a4); one on b2.
    await page.click('[data-testid="edit"]');
    await page.click('[data-testid="tool-empty"]');
    await page.click('[data-square="a1"]');
    rows[rows.length - 1][0] = '.';
    await expectShown(page, text(rows, 'w'));
    await page.click('[data-testid="tool-p"]');
    await page.click(`[data-square="a${rows.length}"]`);
    rows[0][0] = '.';
    await expectShown(page, text(rows, 'w'));
    await page.click('[data-square="b2"]');
    rows[rows.length - 2][1] = 'p';
    let edited = await expectShown(page, text(rows, 'w'));
    await page.click('[data-testid="side-to-move"]');
    edited = await expectShown(page, text(rows, 'b'));
    await page.click('[data-testid="mirror"]');
    rows = rows.map((r) => [...r].reverse());
    await expectShown(page, text(rows, 'b'));
    // Swapping colours keeps the value and hands it to the other side.
    const before = await valueOf(text(rows, 'b'));
    await page.click('[data-testid="swap"]');
    const swappedRows = [...rows].reverse().map((r) => r.map((c) => ({P: 'p', p: 'P'})[c] ?? c));
    const swapped = await expectShown(page, text(swappedRows, 'w'));
    check(
        swapped.plies === before.plies && swapped.winner !== before.winner,
        'swap changed the value');
    await page.click('[data-testid="clear"]');
    const empty = text(rows.map((r) => r.map(() => '.')), 'w');
    await expectShown(page, empty);
    await page.click('[data-testid="start"]');
    await expectShown(page, start.position);
    await page.click('[data-testid="edit"]');  // done editing: squares play again
    check(edited.position !== start.position, 'the edits changed nothing');
  });

  step('an invalid position shows the API error, by editing and by typing', async () => {
    // A white pawn on its goal row with white to move (a4 instead of a1).
    await page.click('[data-testid="edit"]');
    await page.click('[data-testid="tool-empty"]');
    await page.click('[data-square="a1"]');
    await page.click('[data-testid="tool-P"]');
    const rows = grid(start.position);
    await page.click(`[data-square="a${rows.length}"]`);
    rows[0][0] = 'P';
    rows[rows.length - 1][0] = '.';
    const invalid = text(rows, 'w');
    await waitForError(page, await apiError(invalid));
    check(
        (await page.inputValue('[data-testid="position"]')) === invalid,
        'the box lost the invalid text');
    check((await page.locator('[data-uci]').count()) === 0, 'an invalid position lists moves');
    await page.click('[data-testid="edit"]');
    for (const typed of ['pppp/4/4/PPPQ w', 'ppppp/5/5/5/5 w']) {
      await page.fill('[data-testid="position"]', typed);
      await page.press('[data-testid="position"]', 'Enter');
      await waitForError(page, await apiError(typed));
    }
    await page.fill('[data-testid="position"]', start.moves[0].position);
    await page.press('[data-testid="position"]', 'Enter');
    const typed = await expectShown(page, start.moves[0].position);
    check(await page.isHidden('[data-testid="error"]'), 'the error stays after a valid position');
    await page.keyboard.press('Space');  // the box let go of the keys
    await expectShown(page, typed.moves[0].position);
  });

  step('a URL with ?position= reproduces the view, an invalid one its error; flip', async () => {
    const rows = grid(start.position);
    rows[0][0] = 'P';  // a white pawn on its goal row, and five of them
    const invalid = text(rows, 'w');
    await page.goto(`${base}/?position=${encodeURIComponent(invalid)}`, {timeout: STEP_TIMEOUT_MS});
    await waitForError(page, await apiError(invalid));
    const selected = await page.locator('[data-testid="table-select"]').inputValue();
    check(selected === big.name, `an invalid 4x4 position selects ${selected}`);
    const position = (await valueOf(start.moves[0].position)).moves[1].position;
    await page.goto(
        `${base}/?position=${encodeURIComponent(position)}`, {timeout: STEP_TIMEOUT_MS});
    const v = await expectShown(page, position);
    await expectMoves(page, v);
    const corner = () => page.$eval('[data-square]', (s) => s.dataset.square);
    check((await corner()) === 'a4', `the top left square is ${await corner()}`);
    await page.click('[data-testid="flip"]');
    check((await corner()) === 'd1', `flipped, the top left square is ${await corner()}`);
    await page.keyboard.press('f');
    check((await corner()) === 'a4', `flipped back, the top left square is ${await corner()}`);
  });

  step('the table selector switches to 3x3 and back (back button)', async () => {
    const here = new URL(page.url()).searchParams.get('position');
    await page.selectOption('[data-testid="table-select"]', small.name);
    const v = await expectShown(page, small.start);
    await expectMoves(page, v);
    await page.keyboard.press('Space');
    await expectShown(page, v.moves[0].position);
    await page.goBack({timeout: STEP_TIMEOUT_MS});
    await page.goBack({timeout: STEP_TIMEOUT_MS});
    await expectShown(page, here);
    const selected = await page.locator('[data-testid="table-select"]').inputValue();
    check(selected === big.name, `back on 4x4, the selector shows ${selected}`);
  });

  let passed = 0;
  for (const [name, body] of steps) {
    try {
      await body();
    } catch (e) {
      console.log(`FAILED: ${name}: ${e.message}`);
      return false;
    }
    passed += 1;
    console.log(`ok ${passed} - ${name}`);
  }
  return true;
}

// ---- main ------------------------------------------------------------------

const watchdog = setTimeout(async () => {
  console.log(`FAILED: the browser test took over ${TOTAL_SECONDS} s`);
  await cleanUp();
  process.exit(1);
}, TOTAL_SECONDS * 1000);

async function cleanUp() {
  await browser?.close().catch(() => {});
  const stopped = await stopServer();
  if (workDir) fs.rmSync(workDir, {recursive: true, force: true});
  return stopped;
}

let ok = false;
const pageErrors = [];
try {
  base = await startServer(tableArguments());
  const {body} = await api('/api/v1/tables');
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    timeout: STEP_TIMEOUT_MS,
  });
  // A fresh context is a fresh profile (playwright makes a temporary user data dir).
  const context = await browser.newContext({viewport: {width: 1280, height: 800}});
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.on('pageerror', (e) => pageErrors.push(e.message));
  ok = await run(page, body.tables);
  if (pageErrors.length > 0) {
    console.log(`FAILED: the page threw: ${pageErrors.join('; ')}`);
    ok = false;
  }
} catch (e) {
  console.log(`FAILED: ${e.message}`);
} finally {
  clearTimeout(watchdog);
  const stopped = await cleanUp();
  if (ok && stopped && stopped.code !== 0) {
    console.log(`FAILED: the server stopped with ${stopped.code ?? stopped.signal} on SIGTERM`);
    ok = false;
  }
}
console.log(
    `browser test ${ok ? 'passed' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(ok ? 0 : 1);
