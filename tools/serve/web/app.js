// The pawntb explorer: a board, the value of its position, every move with its
// value, and the value over the game played so far. It uses only the JSON API
// under /api/v1/ (docs/api.md) and keeps the position in the URL, so that a
// link reproduces the view and the browser's back and forward buttons work.

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';

// A pawn drawn for this page (45x45); style.css fills it for each side.
const PAWN_PATH =
    'M22.5 8a5.6 5.6 0 0 1 3.7 9.8c2.5 1.3 4 3.3 4.1 5.5h-3.4c2 2.6 3.6 6.3 4.2 10.7H13.9c.6-4.4 ' +
    '2.2-8.1 4.2-10.7h-3.4c.1-2.2 1.6-4.2 4.1-5.5A5.6 5.6 0 0 1 22.5 8zM11.5 35.5h22a2 2 0 0 1 2 ' +
    '2V40h-26v-2.5a2 2 0 0 1 2-2z';

const state = {
  tables: [],
  table: null,  // the table whose board is shown
  game: [],     // positions of the game played so far; game[cursor] is shown
  cursor: 0,
  text: '',     // the shown position text (it may be invalid)
  board: null,  // the parsed board: {rows, cols, cells[row from top][col], turn}
  info: null,   // the API's answer for `text`, or null when it is invalid
  error: '',
  loading: false,
  flipped: false,
  editing: false,
  selected: null,  // the square of the pawn picked to move
  hovered: null,   // the uci of the move under the pointer or focus
};

const answers = new Map();  // position text -> /position answer (valid positions only)
const values = new Map();   // position text -> {winner, plies} from the batch endpoint
let loadSequence = 0;       // only the newest load may change the view

// ---- the API ---------------------------------------------------------------

async function api(path, options) {
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    throw new Error(`the server does not answer (${e.message})`);
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.error ?? `HTTP ${response.status} for ${path}`);
  return body;
}

async function answerFor(text) {
  if (!answers.has(text)) {
    const answer = await api(`/api/v1/position?position=${encodeURIComponent(text)}`);
    answers.set(answer.position, answer);
    if (answer.position !== text) answers.set(text, answer);
  }
  return answers.get(text);
}

function valueOf(text) { return answers.get(text) ?? values.get(text) ?? null; }

// Fetches, in one request, the values of the game's positions not yet known.
async function fetchMissingValues(game) {
  const missing = game.filter((p) => !valueOf(p));
  if (missing.length === 0) return;
  const results = await api('/api/v1/positions', {
    method: 'POST',
    headers: {'Content-Type': 'application/json'},
    body: JSON.stringify(missing),
  });
  results.forEach((r, i) => {
    if (!r.error) values.set(missing[i], r);
  });
}

// ---- positions -------------------------------------------------------------

// Position notation (README): rows from the top separated by '/', a number for
// that many empty squares ('.' for one), then 'w' or 'b'. Only for drawing and
// editing: the server parses and judges every position, and its error says why
// one is invalid. Returns null for text it cannot draw.
function parsePosition(text) {
  const match = /^\s*([^\s]+)\s+([wb])\s*$/.exec(text);
  if (!match) return null;
  const cells = [];
  for (const rowText of match[1].split('/')) {
    const row = [];
    for (const token of rowText.match(/\d+|./g) ?? []) {
      if (/^\d+$/.test(token))
        row.push(...Array(Number(token)).fill(''));
      else if (token === '.')
        row.push('');
      else if (token === 'P' || token === 'p')
        row.push(token);
      else
        return null;
    }
    cells.push(row);
  }
  const cols = cells[0].length;
  if (cols === 0 || cols > 26 || cells.some((row) => row.length !== cols)) return null;
  return {rows: cells.length, cols, cells, turn: match[2]};
}

function formatPosition(board) {
  const rows = board.cells.map((row) => {
    let out = '';
    let empty = 0;
    for (const cell of row) {
      if (cell === '') {
        empty += 1;
        continue;
      }
      if (empty > 0) out += empty;
      out += cell;
      empty = 0;
    }
    return empty > 0 ? out + empty : out;
  });
  return `${rows.join('/')} ${board.turn}`;
}

const fileName = (col) => String.fromCharCode(97 + col);
const squareName = (board, row, col) => `${fileName(col)}${board.rows - row}`;

function parseUci(uci) {
  const m = /^([a-z])(\d+)([a-z])(\d+)$/.exec(uci);
  return m ? {from: m[1] + m[2], to: m[3] + m[4], capture: m[1] !== m[3]} : null;
}

const capitalized = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const pliesText = (n) => `${n} ${n === 1 ? 'ply' : 'plies'}`;

// "white wins in 6 plies", or "white has won" at 0 plies: the words of
// common::value_text() (tools/common/answers.hpp), which the CLI says too;
// tests/serve (ExplorerWords) checks that the two agree.
function valueText(value) {
  return value.plies === 0 ? `${value.winner} has won` :
                             `${value.winner} wins in ${pliesText(value.plies)}`;
}

// The CLI's wording (pawntb probe): "White to move: white wins in 7 plies".
function statusText(info) {
  return `${capitalized(info.to_move)} to move: ${valueText(info)}`;
}

// Why a game-over position is over, as `pawntb play` says it.
function endReason(board, info) {
  const pawn = info.winner === 'white' ? 'P' : 'p';
  const farRow = info.winner === 'white' ? 0 : board.rows - 1;
  if (board.cells[farRow].includes(pawn)) {
    return `A ${info.winner} pawn reached rank ${info.winner === 'white' ? board.rows : 1}.`;
  }
  return `${capitalized(info.to_move)} has no move.`;
}

// ---- loading and history ---------------------------------------------------

function urlFor(text) {
  return `/?position=${encodeURIComponent(text).replace(/%2F/gi, '/').replace(/%20/g, '+')}`;
}

// Shows game[cursor]; `mode` is how the browser history records it: 'push',
// 'replace' or 'none' (when the history itself moved).
async function showGame(game, cursor, mode) {
  const sequence = ++loadSequence;
  state.loading = true;
  document.body.dataset.loading = 'true';
  const text = game[cursor];
  let info = null;
  let error = '';
  try {
    info = await answerFor(text);
  } catch (e) {
    error = e.message;
  }
  if (sequence !== loadSequence) return;
  if (info) game = game.map((p, i) => (i === cursor ? info.position : p));
  Object.assign(state, {game, cursor, info, error, text: info ? info.position : text});
  Object.assign(state, {selected: null, hovered: null, loading: false});
  const board = parsePosition(state.text);
  if (board) state.board = board;
  // An invalid position keeps the table of its board size, if there is one.
  const table = tableFor(info ? info.geometry : state.board);
  if (table || !state.table) selectTable(table ?? defaultTable());

  const entry = {game: state.game, cursor: state.cursor};
  const unchanged = JSON.stringify(entry) === JSON.stringify(history.state);
  if (mode === 'push' && !unchanged) history.pushState(entry, '', urlFor(state.text));
  if (mode === 'replace' || (mode === 'push' && unchanged)) {
    history.replaceState(entry, '', urlFor(state.text));
  }
  delete document.body.dataset.loading;
  render();

  try {
    await fetchMissingValues(state.game);
  } catch {
    return;  // the chart leaves out what it does not know
  }
  if (sequence === loadSequence) renderChart();
}

const newGame = (text) => showGame([text], 0, 'push');

function play(uci) {
  const move = state.info?.moves.find((m) => m.uci === uci);
  if (!move || state.loading) return;
  const next = state.cursor + 1;
  const game = state.game[next] === move.position ? state.game :
                                                    [...state.game.slice(0, next), move.position];
  showGame(game, next, 'push');
}

function playBest() {
  if (state.info && state.info.moves.length > 0) play(state.info.moves[0].uci);
}

function undo() {
  if (state.cursor > 0 && !state.loading) showGame(state.game, state.cursor - 1, 'push');
}

function redo() {
  if (state.cursor + 1 < state.game.length && !state.loading) {
    showGame(state.game, state.cursor + 1, 'push');
  }
}

function restoreFromHistory(entry) {
  if (entry?.game?.length) return showGame(entry.game, entry.cursor, 'none');
  const text = new URLSearchParams(location.search).get('position');
  return showGame([text ?? defaultTable().start], 0, 'none');
}

// ---- tables ----------------------------------------------------------------

// The project's default table is the 4x4 one; otherwise the first listed.
function defaultTable() {
  return state.tables.find((t) => t.geometry.rows === 4 && t.geometry.cols === 4) ??
      state.tables[0];
}

// The table that answers a board size is the one with the largest K (the
// list comes in increasing rows, cols, K); undefined when none is loaded.
function tableFor(geometry) {
  return state.tables.findLast(
      (t) => t.geometry.rows === geometry?.rows && t.geometry.cols === geometry?.cols);
}

function selectTable(table) {
  state.table = table;
  $('table-select').value = table.name;
  const count = (n) => Number(n).toLocaleString('en');
  $('table-note').textContent = `${count(table.entries)} positions, longest game ${
      pliesText(table.longest_game_plies)}, checksum ${table.checksum}`;
}

function fillTableSelect() {
  const select = $('table-select');
  select.replaceChildren(
      ...state.tables.map((t) => {
        const g = t.geometry;
        const option = new Option(`${g.rows}×${g.cols}, up to ${g.max_pawns} pawns a side`, t.name);
        option.title = t.path;
        return option;
      }),
  );
}

// ---- the editor ------------------------------------------------------------

function editBoard(change) {
  if (!state.board) return;
  const board = structuredClone(state.board);
  change(board);
  newGame(formatPosition(board));
}

const editor = {
  square(row, col) {
    const tool = document.querySelector('input[name="tool"]:checked').value;
    editBoard((b) => {
      b.cells[row][col] = b.cells[row][col] === tool ? '' : tool;
    });
  },
  sideToMove: () => editBoard((b) => (b.turn = b.turn === 'w' ? 'b' : 'w')),
  mirror: () => editBoard((b) => b.cells.forEach((row) => row.reverse())),
  // The colour-swapped position: upside down, colours and side to move swapped.
  // Its value is the same with the other winner.
  swap: () => editBoard((b) => {
    const other = {P: 'p', p: 'P', '': ''};
    b.cells = b.cells.reverse().map((row) => row.map((c) => other[c]));
    b.turn = b.turn === 'w' ? 'b' : 'w';
  }),
  clear: () => editBoard((b) => b.cells.forEach((row) => row.fill(''))),
  start: () => newGame(state.table.start),
};

function setEditing(on) {
  state.editing = on;
  state.selected = null;
  $('edit').setAttribute('aria-pressed', String(on));
  $('edit').textContent = on ? 'Done editing' : 'Edit squares';
  document.body.classList.toggle('editing', on);
  renderBoard();
}

// ---- clicks on squares -----------------------------------------------------

function movesFrom(square) {
  return (state.info?.moves ?? []).filter((m) => parseUci(m.uci).from === square);
}

function clickSquare(row, col) {
  if (state.editing) return editor.square(row, col);
  const square = squareName(state.board, row, col);
  if (state.selected) {
    const move = movesFrom(state.selected).find((m) => parseUci(m.uci).to === square);
    if (move) return play(move.uci);
  }
  state.selected = state.selected !== square && movesFrom(square).length > 0 ? square : null;
  renderBoard();
}

// ---- rendering -------------------------------------------------------------

function svgElement(name, attributes = {}) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

function pawnIcon(piece) {
  const svg = svgElement('svg', {viewBox: '0 0 45 45', class: 'pawn', 'aria-hidden': 'true'});
  svg.append(svgElement('path', {d: PAWN_PATH}));
  const span = document.createElement('span');
  span.className = `piece ${piece === 'P' ? 'white' : 'black'}`;
  span.dataset.piece = piece;
  span.append(svg);
  return span;
}

// The move that led to the shown position, if the game came through it.
function lastMove() {
  if (state.cursor === 0) return null;
  const before = answers.get(state.game[state.cursor - 1]);
  return before?.moves.find((m) => m.position === state.text) ?? null;
}

// Row and column of a square on screen (after flipping).
function displayed(board, row, col) {
  return state.flipped ? [board.rows - 1 - row, board.cols - 1 - col] : [row, col];
}

function renderBoard() {
  const board = state.board;
  const element = $('board');
  if (!board) return element.replaceChildren();
  const size = Math.min(108, Math.floor(432 / Math.max(board.rows, board.cols)));
  const frame = element.parentElement;  // the labels share the board's sizes
  frame.style.setProperty('--square', `${size}px`);
  frame.style.setProperty('--rows', board.rows);
  frame.style.setProperty('--cols', board.cols);

  const hovered = state.hovered ? parseUci(state.hovered) : null;
  const last = lastMove() ? parseUci(lastMove().uci) : null;
  const targets = new Set(
      state.selected ? movesFrom(state.selected).map((m) => parseUci(m.uci).to) : [],
  );
  const pieceNames = {P: 'white pawn', p: 'black pawn', '': 'empty'};

  const squares = [];
  for (let y = 0; y < board.rows; y++) {
    for (let x = 0; x < board.cols; x++) {
      const [row, col] = displayed(board, y, x);
      const name = squareName(board, row, col);
      const piece = board.cells[row][col];
      const button = document.createElement('button');
      button.type = 'button';
      button.className = `square ${(col + board.rows - row) % 2 === 1 ? 'dark' : 'light'}`;
      button.dataset.square = name;
      button.setAttribute('aria-label', `${name}, ${pieceNames[piece]}`);
      button.classList.toggle('last', !!last && (last.from === name || last.to === name));
      button.classList.toggle('hover-from', hovered?.from === name);
      button.classList.toggle('hover-to', hovered?.to === name);
      button.classList.toggle('selected', state.selected === name);
      button.classList.toggle('target', targets.has(name));
      button.classList.toggle('occupied', piece !== '');
      if (piece) button.append(pawnIcon(piece));
      button.addEventListener('click', () => clickSquare(row, col));
      squares.push(button);
    }
  }
  if (hovered) squares.push(arrow(board, hovered));
  const focused = document.activeElement?.dataset?.square;  // keep the keyboard's place
  element.replaceChildren(...squares);
  if (focused) element.querySelector(`[data-square="${focused}"]`)?.focus();

  const rankLabels = [];
  const fileLabels = [];
  for (let y = 0; y < board.rows; y++) rankLabels.push(displayed(board, y, 0)[0]);
  for (let x = 0; x < board.cols; x++) fileLabels.push(displayed(board, 0, x)[1]);
  $('ranks').replaceChildren(...rankLabels.map((row) => label(String(board.rows - row))));
  $('files').replaceChildren(...fileLabels.map((col) => label(fileName(col))));
}

function label(text) {
  const span = document.createElement('span');
  span.textContent = text;
  return span;
}

// An arrow over the board from a move's square to its target.
function arrow(board, move) {
  const centre = (square) => {
    const col = square.charCodeAt(0) - 97;
    const row = board.rows - Number(square.slice(1));
    const [y, x] = displayed(board, row, col);
    return [x + 0.5, y + 0.5];
  };
  const [x1, y1] = centre(move.from);
  const [x2, y2] = centre(move.to);
  const length = Math.hypot(x2 - x1, y2 - y1);
  const shorten = (t) => [x1 + ((x2 - x1) * t) / length, y1 + ((y2 - y1) * t) / length];
  const [ex, ey] = shorten(length - 0.32);  // stop short so that the head sits on the square
  const svg = svgElement('svg', {
    class: 'arrow',
    viewBox: `0 0 ${board.cols} ${board.rows}`,
    'aria-hidden': 'true',
  });
  const marker = svgElement('marker', {
    id: 'arrow-head',
    viewBox: '0 0 10 10',
    refX: '2',
    refY: '5',
    markerWidth: '3.2',
    markerHeight: '3.2',
    orient: 'auto',
  });
  marker.append(svgElement('path', {d: 'M0 0L10 5L0 10z'}));
  const defs = svgElement('defs');
  defs.append(marker);
  svg.append(
      defs,
      svgElement('line', {x1, y1, x2: ex, y2: ey, 'marker-end': 'url(#arrow-head)'}),
  );
  return svg;
}

function moveLabel(uci) {
  const m = parseUci(uci);
  return `${m.from}${m.capture ? '×' : '–'}${m.to}`;
}

function moveItem(move, best) {
  const item = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'move';
  button.dataset.uci = move.uci;
  const after = valueText(move);
  button.title = `${move.uci}: then ${after}`;
  const name = document.createElement('span');
  name.className = 'move-name';
  name.textContent = moveLabel(move.uci);
  const badge = document.createElement('span');
  badge.className = 'badge';
  badge.textContent = String(move.plies);
  badge.setAttribute('aria-label', after);
  button.append(name);
  if (best) {
    const tag = document.createElement('span');
    tag.className = 'best-tag';
    tag.textContent = 'best';
    button.append(tag);
  }
  button.append(badge);
  const hover = (uci) => () => {
    state.hovered = uci;
    renderBoard();
  };
  button.addEventListener('mouseenter', hover(move.uci));
  button.addEventListener('focus', hover(move.uci));
  button.addEventListener('mouseleave', hover(null));
  button.addEventListener('blur', hover(null));
  button.addEventListener('click', () => play(move.uci));
  item.append(button);
  return item;
}

function renderMoves() {
  const info = state.info;
  const moves = info?.moves ?? [];
  const winning = moves.filter((m) => m.winner === info.to_move);
  const losing = moves.filter((m) => m.winner !== info.to_move);
  const fill = (id, list) => {
    const items = list.map((m) => moveItem(m, m === moves[0]));
    if (items.length === 0) {
      const none = document.createElement('li');
      none.className = 'none';
      none.textContent = 'none';
      items.push(none);
    }
    $(id).replaceChildren(...items);
  };
  fill('winning', winning);
  fill('losing', losing);
  $('winning-heading').textContent = `Winning moves (${winning.length})`;
  $('losing-heading').textContent = `Losing moves (${losing.length})`;
  const line = (info?.line ?? []).map((uci) => {
    const span = document.createElement('span');
    span.textContent = moveLabel(uci);
    return span;
  });
  $('line').replaceChildren(...(line.length > 0 ? line : ['—']));
}

function renderStatus() {
  const info = state.info;
  const board = state.board;
  $('status').textContent = info ? statusText(info) : 'Invalid position';
  document.title = `${state.text}: ${$('status').textContent} (pawntb explorer)`;
  $('reason').textContent = info && info.plies === 0 && board ? endReason(board, info) : '';
  const turn = info?.to_move ?? (board?.turn === 'b' ? 'black' : 'white');
  $('turn').className = `turn ${turn}`;
  $('turn').title = `${turn} to move`;
  $('error').hidden = !state.error;
  $('error').textContent = state.error;
  $('side-to-move').textContent = `To move: ${turn}`;
  const input = $('position');
  if (document.activeElement !== input || !state.error) input.value = state.text;
  input.setAttribute('aria-invalid', String(!!state.error));
  $('undo').disabled = state.cursor === 0;
  $('redo').disabled = state.cursor + 1 >= state.game.length;
  $('best').disabled = !(info && info.moves.length > 0);
}

// Plies to the end of each position of the game, coloured by winner.
function renderChart() {
  const width = 560;
  const height = 168;
  const pad = {left: 34, right: 10, top: 16, bottom: 26};
  const plotWidth = width - pad.left - pad.right;
  const plotHeight = height - pad.top - pad.bottom;
  const game = state.game;
  const known = game.map(valueOf);
  const top = Math.max(1, ...known.filter(Boolean).map((v) => v.plies));
  const slot = plotWidth / Math.max(game.length, 8);
  const barWidth = Math.max(3, Math.min(36, slot * 0.72));
  const y = (plies) => pad.top + plotHeight - (plies / top) * plotHeight;

  const svg = svgElement('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: 'chart-svg',
    'data-testid': 'chart',
    role: 'img',
  });
  const summary = known.map((v, i) => `ply ${i}: ${v ? valueText(v) : 'invalid'}`).join(', ');
  svg.setAttribute('aria-label', `Plies to the end over the game. ${summary}`);
  for (const tick of [...new Set([0, Math.round(top / 2), top])]) {
    svg.append(
        svgElement(
            'line', {x1: pad.left, x2: width - pad.right, y1: y(tick), y2: y(tick), class: 'grid'}),
    );
    const text =
        svgElement('text', {x: pad.left - 6, y: y(tick) + 4, class: 'tick', 'text-anchor': 'end'});
    text.textContent = String(tick);
    svg.append(text);
  }
  const axis = svgElement('text', {x: pad.left, y: height - 6, class: 'tick'});
  axis.textContent = 'ply of the game →';
  svg.append(axis);

  known.forEach((value, i) => {
    if (!value) return;  // an invalid position has no value to draw
    const x = pad.left + slot * i + (slot - barWidth) / 2;
    const where = `${i === state.cursor ? ' current' : ''}${i > state.cursor ? ' future' : ''}`;
    const group = svgElement('g', {class: `bar ${value.winner}${where}`, 'data-ply': i});
    const barTop = Math.min(y(value.plies), y(0) - 3);
    group.append(svgElement('rect', {x, y: barTop, width: barWidth, height: y(0) - barTop, rx: 2}));
    const title = svgElement('title');
    title.textContent = `ply ${i}: ${valueText(value)}`;
    group.append(title);
    if (barWidth >= 14) {
      const label = svgElement(
          'text',
          {x: x + barWidth / 2, y: barTop - 4, class: 'bar-label', 'text-anchor': 'middle'});
      label.textContent = String(value.plies);
      group.append(label);
    }
    group.addEventListener('click', () => {
      if (i !== state.cursor && !state.loading) showGame(state.game, i, 'push');
    });
    svg.append(group);
  });
  const legend = document.createElement('p');
  legend.className = 'legend';
  legend.innerHTML =
      '<span class="key white"></span> white wins <span class="key black"></span> black wins';
  $('chart').replaceChildren(svg, legend);
}

function render() {
  renderBoard();
  renderStatus();
  renderMoves();
  renderChart();
}

// ---- wiring ----------------------------------------------------------------

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest?.('input, select, textarea')) return;
  const actions = {
    ' ': playBest,
    ArrowLeft: undo,
    ArrowRight: redo,
    f: () => $('flip').click(),
    Escape: () => (state.editing ? setEditing(false) : ((state.selected = null), renderBoard())),
  };
  const action = actions[event.key];
  if (!action) return;
  event.preventDefault();
  action();
}

function wire() {
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('best').addEventListener('click', playBest);
  $('flip').addEventListener('click', () => {
    state.flipped = !state.flipped;
    $('flip').setAttribute('aria-pressed', String(state.flipped));
    renderBoard();
  });
  $('edit').addEventListener('click', () => setEditing(!state.editing));
  for (const radio of document.querySelectorAll('input[name="tool"]')) {
    radio.addEventListener('change', () => setEditing(true));
  }
  $('side-to-move').addEventListener('click', editor.sideToMove);
  $('mirror').addEventListener('click', editor.mirror);
  $('swap').addEventListener('click', editor.swap);
  $('clear').addEventListener('click', editor.clear);
  $('start').addEventListener('click', editor.start);
  $('position-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    await newGame($('position').value.trim());
    if (!state.error) $('position').blur();  // so that the keys play again
  });
  $('table-select').addEventListener('change', (event) => {
    const table = state.tables.find((t) => t.name === event.target.value);
    if (table) newGame(table.start);
  });
  document.addEventListener('keydown', onKey);
  // A focused button would also take the space bar as a click.
  document.addEventListener('keyup', (event) => {
    if (event.key === ' ' && !event.target.closest?.('input, select, textarea'))
      event.preventDefault();
  });
  window.addEventListener('popstate', (event) => restoreFromHistory(event.state));
}

async function main() {
  wire();
  try {
    state.tables = (await api('/api/v1/tables')).tables;
  } catch (e) {
    state.error = `cannot list the tables: ${e.message}`;
    return renderStatus();
  }
  if (state.tables.length === 0) {
    state.error = 'the server has no tables loaded';
    return renderStatus();
  }
  fillTableSelect();
  if (history.state?.game?.length) return restoreFromHistory(history.state);
  const text = new URLSearchParams(location.search).get('position');
  return showGame([text ?? defaultTable().start], 0, 'replace');
}

main();
