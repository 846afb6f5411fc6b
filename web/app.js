/* app.js - the page of `varia serve`. It draws the game the server sends (the layout once: boards,
 * cells, how each piece looks, as the rulebook's pictures draw them; the state after every change),
 * turns clicks, drags and typed moves into moves, and shows the computer's moves as they come (a
 * state request that waits for the next change). No framework: the page is small. */
'use strict';

const SVGNS = 'http://www.w3.org/2000/svg';
/* the rulebook's picture sizes and colours (describe --svg) */
const CELL = 40, MARGIN = 22, CAPTION = 22;
const HOLDING_ROW = CELL + 16; /* a row of holding cells and the names above it */
const COLOUR = {
    light: '#f0d9b5', dark: '#b58863', lastLight: '#f6f669', lastDark: '#baca2b',
    pickLight: '#c8e6a0', pickDark: '#8fb85a', move: '#2e8b2e', capture: '#c81e1e',
};
const SEAT_WORDS = { human: 'Human', ai: 'Computer', greedy: 'Greedy (weak)', random: 'Random (weakest)' };

const $ = (id) => document.getElementById(id);

/* An SVG element with attributes, appended to parent. */
function svg(tag, attrs, parent, text) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
}

/* An HTML element with attributes and text, appended to parent. */
function html(tag, attrs, parent, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
}

let G = null;            /* the game: {id, version, layout, state} */
let view = { flip: false };
let pick = { cells: [], hand: null, ending: [] }; /* the cells clicked so far, a hand piece */
let drag = null;         /* a piece carried by the pointer */
let cellBox = [];        /* each cell's top-left corner in the board picture */
let pollToken = 0;
let pollAbort = null;    /* ends the state request that waits */
let lost = false;        /* the server did not answer the last state request */
let shownViewer = null;  /* hot seat with secrets: whose screen the page was handed to */

/* ---- talking to the server ---------------------------------------------------------------- */

async function call(path, body, signal) {
    const init = body === undefined ? {} : {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal,
    };
    const r = await fetch(path, init);
    let j;
    try { j = await r.json(); } catch (e) { j = { error: `${r.status} ${r.statusText}` }; }
    if (!r.ok) {
        const err = new Error(j.error || r.statusText);
        err.status = r.status;
        throw err;
    }
    return j;
}

function say(text, info) {
    const m = $('message');
    m.textContent = text || '';
    m.className = info ? 'info' : '';
}

/* A game the server sent: a new one (another id), or a newer state of this one. */
function adopt(g) {
    const fresh = !G || g.id !== G.id;
    if (!fresh && g.version < G.version) return;
    if (fresh) {
        G = g;
        sessionStorage.setItem('varia.id', g.id);
        view.flip = false;
        shownViewer = null;
        startPolling();
    } else {
        if (g.layout) G.layout = g.layout;
        if (g.state.ply !== G.state.ply || g.state.mover !== G.state.mover) pick = { cells: [], hand: null, ending: [] };
        G.version = g.version;
        G.state = g.state;
    }
    render(fresh);
}

function stopPolling() {
    pollToken++;
    if (pollAbort) pollAbort.abort();
    pollAbort = null;
}

function startPolling() {
    stopPolling();
    poll(pollToken);
}

/* Waits for each change of the game (the computer's moves) and shows it. */
async function poll(token) {
    while (token === pollToken) {
        try {
            pollAbort = new AbortController();
            const g = await call('/api/state', { id: G.id, after: G.version, wait: 25 }, pollAbort.signal);
            if (token !== pollToken) return;
            if (lost) say('');
            lost = false;
            if (g.version > G.version) adopt(g);
        } catch (e) {
            if (token !== pollToken) return;
            if (e.status === 404) {
                say('This game is no longer on the server (it keeps the 32 used last): start a new game.');
                return;
            }
            if (e.status === undefined && !lost) {
                lost = true;
                say('The server does not answer: is varia serve still running? (trying again)');
            }
            await new Promise((ok) => setTimeout(ok, 1000));
        }
    }
}

/* An action on the game; its answer is the new state. The waiting state request is set aside
 * meanwhile, so that the answer is shown before the changes after it (the computer's reply). */
async function act(path, extra) {
    stopPolling();
    try {
        adopt(await call(path, Object.assign({ id: G.id }, extra || {})));
        return true;
    } catch (e) {
        say(e.message);
        if (e.status === 409) refresh();
        return false;
    } finally {
        startPolling();
    }
}

async function refresh() {
    try { adopt(await call('/api/state', { id: G.id })); } catch (e) { say(e.message); }
}

/* ---- the board picture --------------------------------------------------------------------- */

function ownerName(o) { return G.layout.owners[o] ? G.layout.owners[o].name : `player ${o + 1}`; }

/* The player whose side is drawn at the bottom: the one human (the first of several), the
 * first player when nobody plays; flip turns the board round. */
function bottomPlayer() {
    const st = G.state;
    if (st.viewer >= 0) return st.viewer;
    const humans = st.seats.map((s, p) => (s === 'human' ? p : -1)).filter((p) => p >= 0);
    return humans.length ? humans[0] : 0;
}

/* Quarter turns (clockwise) of the picture that put the bottom player's forward upwards. */
function quarterTurns() {
    const up = G.layout.owners[bottomPlayer()].up;
    let r = up[1] > 0 ? 0 : up[1] < 0 ? 2 : up[0] < 0 ? 1 : 3;
    if (view.flip) r = (r + 2) % 4;
    return r;
}

/* Column and row on the picture of the cell (x, y) of a board w x h, turned r quarters. */
function turn(x, y, w, h, r) {
    if (r === 0) return [x, h - 1 - y];
    if (r === 1) return [y, x];
    if (r === 2) return [w - 1 - x, y];
    return [h - 1 - y, w - 1 - x];
}

/* The file part of a cell's name ("e" of "top:e4") and its rank part ("4"). */
function nameParts(name) {
    const bare = name.includes(':') ? name.slice(name.lastIndexOf(':') + 1) : name;
    const k = bare.search(/[0-9]/);
    return k < 0 ? [bare, ''] : [bare.slice(0, k), bare.slice(k)];
}

function geometry() {
    const L = G.layout, r = quarterTurns();
    const many = L.boards.length > 1;
    const boards = L.boards.map((b, i) => ({
        index: i, name: b.title, w: b.width, h: b.height,
        cols: r % 2 ? b.height : b.width, rows: r % 2 ? b.width : b.height,
        holdingRows: b.holding_rows || 0,
        /* (the holding cells' rows, under the board: as wide as the longest) */
        holdingCols: Math.max(0, ...L.cells.filter((ci) => ci.holding && ci.board === i).map((ci) => ci.x + 1)),
    }));
    const order = r === 2 ? [...boards].reverse() : boards;
    let x = 0, height = 0;
    const top = many ? CAPTION : 0;
    for (const b of order) {
        b.x0 = x + MARGIN;
        b.y0 = top + MARGIN;
        x += Math.max(b.cols, b.holdingCols) * CELL + 2 * MARGIN;
        height = Math.max(height, b.rows * CELL + 2 * MARGIN + b.holdingRows * HOLDING_ROW);
    }
    return { r, boards, width: x, height: height + top, many };
}

/* Draws piece (type t, owner o) with its top-left corner at (x, y), as the rulebook does: the
 * rule file's glyph with its letter small in the corner, or a disc in the owner's colour. */
function drawPiece(parent, t, o, x, y) {
    const type = G.layout.types[t], look = type.looks[o];
    const g = svg('g', { class: 'piece', 'data-type': t, 'data-owner': o, 'data-letter': type.letter }, parent);
    if (look.glyph) {
        svg('text', {
            x: x + CELL / 2, y: y + 31, 'font-size': 32, 'text-anchor': 'middle', fill: '#000',
            'font-family': 'DejaVu Sans, sans-serif',
        }, g, look.glyph);
        svg('text', { x: x + CELL - 8, y: y + CELL - 3, 'font-size': 9, fill: '#444', 'font-family': 'sans-serif' },
            g, look.corner);
    } else {
        svg('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: 15, fill: look.disc, stroke: '#000', 'stroke-width': 1.5 }, g);
        svg('text', {
            x: x + CELL / 2, y: y + CELL / 2 + 6, 'font-size': look.text.length > 1 ? 13 : 17, 'text-anchor': 'middle',
            fill: look.ink, 'font-weight': 'bold', 'font-family': 'sans-serif',
        }, g, look.text);
    }
    return g;
}

/* A small picture of one piece (hands, the chooser). */
function pieceIcon(t, o) {
    const s = svg('svg', { viewBox: `0 0 ${CELL} ${CELL}`, 'aria-hidden': 'true' });
    drawPiece(s, t, o, 0, 0);
    return s;
}

/* The legal moves whose cells start with prefix (from the hand piece picked, if one is). */
function candidates(prefix, hand) {
    return G.state.moves.filter((m) => m.path.length >= prefix.length && prefix.every((c, i) => m.path[i] === c) &&
        (hand === null || (m.hand && m.drop === hand)));
}

/* What the board marks: the cells picked, and where the moves that go on from them go next. */
function marks() {
    const next = new Map();
    if (!pick.cells.length && pick.hand === null) return next;
    const board = G.state.board;
    for (const m of candidates(pick.cells, pick.hand)) {
        const c = m.path[pick.cells.length];
        if (c === undefined) continue;
        const victim = board[c] && !(pick.cells.length === 0);
        next.set(c, next.get(c) || (victim ? 'capture' : 'move'));
    }
    return next;
}

function renderBoard() {
    const L = G.layout, st = G.state, geo = geometry();
    const root = $('board');
    root.replaceChildren();
    root.setAttribute('viewBox', `0 0 ${geo.width} ${geo.height}`);
    /* as large as the window allows, the whole board in sight */
    const wrap = $('boardwrap');
    const room = Math.max(200, window.innerHeight - wrap.getBoundingClientRect().top - (st.hands ? 110 : 30));
    const scale = Math.max(0.5, Math.min(2.2, (wrap.clientWidth || geo.width) / geo.width, room / geo.height));
    root.setAttribute('width', Math.round(geo.width * scale));
    root.setAttribute('height', Math.round(geo.height * scale));
    svg('rect', { width: geo.width, height: geo.height, fill: '#ffffff' }, root);
    const last = new Set(st.last || []);
    const picked = new Set(pick.cells);
    const next = marks();
    cellBox = [];
    const cellsOf = L.boards.map(() => []);
    L.cells.forEach((ci, c) => cellsOf[ci.board].push(c));
    for (const b of geo.boards) {
        if (geo.many) {
            svg('text', { x: b.x0, y: b.y0 - 8, 'font-size': 13, 'font-weight': 'bold', 'font-family': 'sans-serif', fill: '#333' },
                root, b.name);
        }
        const colLabel = [], rowLabel = [];
        for (const c of cellsOf[b.index]) {
            const ci = L.cells[c];
            if (ci.holding) {
                /* off the board: its row under the board's labels, its name above it */
                const x = b.x0 + ci.x * CELL, y = b.y0 + b.rows * CELL + 22 + ci.y * HOLDING_ROW + 14;
                cellBox[c] = [x, y];
                svg('text', {
                    x: x + CELL / 2, y: y - 3, 'font-size': 11, 'text-anchor': 'middle', 'font-family': 'sans-serif',
                    fill: '#555', 'pointer-events': 'none',
                }, root, nameParts(ci.name).join(''));
                const fill = picked.has(c) ? COLOUR.pickDark : last.has(c) ? COLOUR.lastDark : COLOUR.dark;
                svg('rect', { class: 'cell', x, y, width: CELL, height: CELL, fill, 'data-c': c, 'data-cell': ci.name }, root);
                continue;
            }
            const [col, row] = turn(ci.x, ci.y, b.w, b.h, geo.r);
            const x = b.x0 + col * CELL, y = b.y0 + row * CELL;
            cellBox[c] = [x, y];
            const [file, rank] = nameParts(ci.name);
            if (colLabel[col] === undefined) colLabel[col] = geo.r % 2 ? rank : file;
            if (rowLabel[row] === undefined) rowLabel[row] = geo.r % 2 ? file : rank;
            const fill = picked.has(c) ? (ci.light ? COLOUR.pickLight : COLOUR.pickDark)
                : last.has(c) ? (ci.light ? COLOUR.lastLight : COLOUR.lastDark)
                    : (ci.light ? COLOUR.light : COLOUR.dark);
            svg('rect', { class: 'cell', x, y, width: CELL, height: CELL, fill, 'data-c': c, 'data-cell': ci.name }, root);
        }
        colLabel.forEach((text, col) => svg('text', {
            x: b.x0 + col * CELL + CELL / 2, y: b.y0 + b.rows * CELL + 15, 'font-size': 12, 'text-anchor': 'middle',
            'font-family': 'sans-serif', fill: '#555', 'pointer-events': 'none',
        }, root, text));
        rowLabel.forEach((text, row) => svg('text', {
            x: b.x0 - MARGIN / 2, y: b.y0 + row * CELL + CELL / 2 + 4, 'font-size': 12, 'text-anchor': 'middle',
            'font-family': 'sans-serif', fill: '#555', 'pointer-events': 'none',
        }, root, text));
    }
    const layer = svg('g', { 'pointer-events': 'none' }, root);
    L.cells.forEach((ci, c) => {
        const [x, y] = cellBox[c];
        const p = st.board[c];
        if (p) {
            const g = drawPiece(layer, p[0], p[1], x, y);
            g.setAttribute('data-cell', ci.name);
            if (drag && drag.from === c) g.setAttribute('opacity', '0.35');
        } else if (st.tiles && st.tiles[c]) {
            drawTile(layer, st.tiles[c], x, y);
        }
        const mark = next.get(c);
        if (mark === 'move') svg('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: 7, fill: COLOUR.move, 'fill-opacity': 0.75 }, layer);
        if (mark === 'capture') {
            svg('circle', {
                cx: x + CELL / 2, cy: y + CELL / 2, r: 17, fill: 'none', stroke: COLOUR.capture, 'stroke-width': 3,
            }, layer);
        }
    });
    if (drag) drag.layer = svg('g', { class: 'ghost' }, root);
}

/* A minefield's tile: its owner's colour; a mine or a blank where the viewer knows, else '?'. */
function drawTile(parent, tile, x, y) {
    const [what, owner] = tile;
    const colour = owner >= 0 ? G.layout.owners[owner].colour : '#999';
    svg('rect', { x: x + 9, y: y + 9, width: 22, height: 22, rx: 4, fill: colour, stroke: '#555', 'fill-opacity': 0.8 }, parent);
    const sign = what === 'mine' ? '\u2739' : what === 'blank' ? '\u25cb' : '?';
    svg('text', {
        x: x + CELL / 2, y: y + CELL / 2 + 5, 'font-size': 14, 'text-anchor': 'middle', 'font-family': 'DejaVu Sans, sans-serif',
        fill: what === 'mine' ? COLOUR.capture : '#222',
    }, parent, sign);
}

/* The cell under a pointer event, or null. */
function cellAt(ev) {
    const root = $('board');
    const pt = root.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    const m = root.getScreenCTM();
    if (!m) return null;
    const p = pt.matrixTransform(m.inverse());
    for (let c = 0; c < cellBox.length; c++) {
        const b = cellBox[c];
        if (b && p.x >= b[0] && p.x < b[0] + CELL && p.y >= b[1] && p.y < b[1] + CELL) return c;
    }
    return null;
}

function svgPoint(ev) {
    const root = $('board');
    const pt = root.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    return pt.matrixTransform(root.getScreenCTM().inverse());
}

/* ---- choosing a move by clicks ------------------------------------------------------------- */

function clearPick() { pick = { cells: [], hand: null, ending: [] }; }

/* A click on cell c: the next cell of a move. When the cells clicked name one move it is played;
 * several that end there (promotions, kinds of move) are offered in the chooser; moves that go on
 * are shown by their next cells. */
function clickCell(c) {
    if (!G.state.moves.length) return;
    if (pick.cells.length === 1 && pick.cells[0] === c && pick.hand === null) {
        clearPick();
        renderBoard();
        renderOthers();
        return;
    }
    let prefix = [...pick.cells, c];
    let cand = candidates(prefix, pick.hand);
    if (!cand.length && (pick.cells.length || pick.hand !== null)) {
        prefix = [c];
        cand = candidates(prefix, null);
        pick.hand = null;
    }
    if (!cand.length) {
        clearPick();
        renderBoard();
        renderHands();
        renderOthers();
        return;
    }
    const ending = cand.filter((m) => m.path.length === prefix.length);
    const going = cand.filter((m) => m.path.length > prefix.length);
    if (ending.length && !going.length) {
        if (ending.length === 1) play(ending[0]);
        else choose(ending);
        return;
    }
    pick.cells = prefix;
    pick.ending = ending; /* a move may also end here: offered as a button */
    renderBoard();
    renderHands();
    renderOthers();
}

async function play(m) {
    clearPick();
    $('chooser').hidden = true;
    say('');
    if (!(await act('/api/move', { move: m.text, version: G.version }))) render(false);
}

/* Several moves end on the cells clicked: the player picks one. */
function choose(list) {
    const box = $('choices');
    box.replaceChildren();
    for (const m of list) {
        const b = html('button', { type: 'button' }, box);
        const t = m.promo !== undefined ? m.promo : m.drop;
        if (t !== undefined) b.appendChild(pieceIcon(t, G.state.mover));
        b.dataset.text = m.text;
        html('span', {}, b, m.label ? `${m.san} \u2014 ${m.label}` : m.san);
        b.addEventListener('click', () => play(m));
    }
    $('chooser').hidden = false;
    box.querySelector('button').focus();
}

function onPointerDown(ev) {
    const c = cellAt(ev);
    if (c === null || ev.button > 0) return;
    ev.preventDefault();
    clickCell(c);
    if (pick.cells.length === 1 && pick.cells[0] === c && G.state.board[c]) {
        drag = { from: c, moved: false, start: [ev.clientX, ev.clientY], id: ev.pointerId };
        $('board').setPointerCapture(ev.pointerId);
    }
}

function onPointerMove(ev) {
    if (!drag || ev.pointerId !== drag.id) return;
    if (!drag.moved && Math.hypot(ev.clientX - drag.start[0], ev.clientY - drag.start[1]) < 6) return;
    if (!drag.moved) {
        drag.moved = true;
        renderBoard();
    }
    const p = svgPoint(ev), piece = G.state.board[drag.from];
    drag.layer.replaceChildren();
    if (piece) drawPiece(drag.layer, piece[0], piece[1], p.x - CELL / 2, p.y - CELL / 2);
}

function onPointerUp(ev) {
    if (!drag || ev.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    const c = cellAt(ev);
    if (d.moved && c !== null && c !== d.from) clickCell(c);
    else if (d.moved) renderBoard();
}

/* ---- the rest of the page ------------------------------------------------------------------ */

function renderStatus() {
    const st = G.state, s = $('status');
    let text = st.status;
    if (st.paused) text += ' \u2014 the computer waits: press \u201cComputer, move\u201d to go on';
    if (st.fault) text += ` \u2014 ${st.fault}`;
    s.textContent = text;
    s.className = st.over ? 'over' : st.check ? 'check' : '';
}

function renderHands() {
    const L = G.layout, st = G.state;
    const top = $('hand-top'), bottom = $('hand-bottom');
    top.replaceChildren();
    bottom.replaceChildren();
    if (!st.hands) return;
    const below = bottomPlayer();
    st.hands.forEach((counts, p) => {
        const box = p === below ? bottom : top;
        const row = html('div', { class: 'hand', 'data-player': p }, box);
        html('span', { class: 'who' }, row, `${ownerName(p)}'s hand:`);
        let any = false;
        counts.forEach((n, t) => {
            if (!n) return;
            any = true;
            const usable = p === st.mover && st.moves.some((m) => m.hand && m.drop === t);
            const b = html('button', { type: 'button', 'data-type': t, title: L.types[t].name }, row);
            if (pick.hand === t && p === st.mover) b.classList.add('picked');
            b.disabled = !usable;
            b.appendChild(pieceIcon(t, p));
            if (n > 1) html('span', {}, b, `\u00d7${n}`);
            b.addEventListener('click', () => {
                clearPick();
                pick.hand = t;
                renderBoard();
                renderHands();
            });
        });
        if (!any) html('span', { class: 'who' }, row, '\u2014');
    });
}

/* What the game keeps besides the board: counters, piles of cards (another player's secret
 * cards face down), a payment owed, who helps whom, what the set-up step asks. */
function renderExtras() {
    const st = G.state, box = $('extras');
    box.replaceChildren();
    const line = (label, text) => {
        const d = html('div', {}, box);
        if (label) html('span', { class: 'label' }, d, `${label}: `);
        if (text !== undefined) d.append(text);
        return d;
    };
    for (const c of st.counters || []) {
        line(c.name, c.perPlayer ? c.values.map((v, p) => `${ownerName(p)} ${v}`).join(', ') : String(c.values[0]));
    }
    for (const p of st.piles || []) {
        const d = line(p.owner >= 0 ? `${p.name} (${ownerName(p.owner)})` : p.name);
        if (!p.cards.length) d.append('\u2014');
        for (const c of p.cards) html('span', { class: 'card-value' + (c === null ? ' hidden' : '') }, d, c === null ? '?' : String(c));
    }
    if (st.debt) line('owed', String(st.debt));
    if (st.helps) line('', st.helps.map((a, p) => `${ownerName(p)} helps ${a >= 0 ? ownerName(a) : 'nobody'}`).join(', '));
    if (st.step) line('', st.step);
    $('extras-card').hidden = !box.childNodes.length;
}

function renderSeats(fresh) {
    const L = G.layout, st = G.state, box = $('seats');
    box.replaceChildren();
    for (let p = 0; p < L.players; p++) {
        const row = html('div', { class: 'seat' + (!st.over && st.mover === p ? ' to-move' : '') }, box);
        html('span', { class: 'swatch', style: `background:${L.owners[p].colour}` }, row);
        html('span', { class: 'name' }, row, ownerName(p));
        const sel = html('select', { 'aria-label': `${ownerName(p)} is played by`, 'data-player': p }, row);
        for (const [k, words] of Object.entries(SEAT_WORDS)) {
            const o = html('option', { value: k }, sel, words);
            if (st.seats[p] === k) o.selected = true;
        }
        sel.addEventListener('change', () => {
            const seats = [...G.state.seats];
            seats[p] = sel.value;
            act('/api/seats', { seats });
        });
    }
    if (document.activeElement !== $('time')) $('time').value = st.time;
    if (document.activeElement !== $('depth')) $('depth').value = st.depth;
    $('go').disabled = st.over || st.thinking;
    $('stop').disabled = !st.thinking;
    if (fresh) {
        const opts = $('options');
        opts.replaceChildren();
        for (const o of L.options) {
            const lab = html('label', {}, opts, `${o.name} `);
            const sel = html('select', { 'data-option': o.name }, lab);
            for (const v of o.values) {
                const e = html('option', { value: v }, sel, v);
                if (v === o.value) e.selected = true;
            }
            sel.addEventListener('change', () => newGame());
        }
    }
}

/* The moves in rows by move number, the game's own notation (coordinates on hover). */
function renderHistory() {
    const st = G.state, list = $('history'), n = G.layout.players;
    list.replaceChildren();
    let row = null, num = null;
    st.history.forEach((p, i) => {
        if (p.out !== undefined) {
            html('li', { class: 'out' }, list, `${ownerName(p.out)} is out`);
            row = null;
            return;
        }
        if (!row || p.n !== num) {
            num = p.n;
            row = html('li', {}, list);
            html('span', { class: 'num' }, row, `${num}.`);
            if (n === 2 && p.mover === 1) html('span', { class: 'ply' }, row, '\u2026');
        }
        const s = html('span', { class: 'ply', title: p.text }, row);
        if (n > 2) html('span', { class: 'dot', style: `background:${G.layout.owners[p.mover].colour}` }, s);
        s.append(p.san);
        if (i === st.history.length - 1) s.classList.add('last');
    });
    list.scrollTop = list.scrollHeight;
}

function renderOthers() {
    const st = G.state, box = $('others');
    box.replaceChildren();
    const button = (text, title, fn) => {
        const b = html('button', { type: 'button', title: title || '' }, box, text);
        b.addEventListener('click', fn);
    };
    /* moves no cell names (a pass, cards), and moves that may end on the cells picked */
    for (const m of st.moves.filter((x) => !x.path.length).concat(pick.ending)) {
        button(m.label ? `${m.san} (${m.label})` : m.san, m.text, () => play(m));
    }
    if (st.setup && st.moves.length) button('Random set-up', 'the rest of this set-up step at random', () => act('/api/random'));
}

function renderCover() {
    const st = G.state, humans = st.seats.filter((s) => s === 'human').length;
    const cover = $('cover');
    if (G.layout.hidden && humans > 1 && st.viewer >= 0 && st.viewer !== shownViewer && !st.over) {
        $('cover-title').textContent = `Pass the screen to ${ownerName(st.viewer)}`;
        cover.hidden = false;
    } else {
        cover.hidden = true;
    }
}

function render(fresh) {
    const st = G.state;
    if (fresh) {
        document.title = `${G.layout.title} \u2014 Varia`;
        const sel = $('game');
        if (![...sel.options].some((o) => o.value === G.layout.game)) html('option', { value: G.layout.game }, sel, G.layout.game);
        sel.value = G.layout.game;
    }
    renderStatus();
    renderBoard();
    renderHands();
    renderExtras();
    renderSeats(fresh);
    renderHistory();
    renderOthers();
    renderCover();
    $('fen').value = st.fen !== null ? st.fen : st.fenNote;
    $('undo').disabled = !st.undo;
    $('redo').disabled = !st.redo;
    $('movetext').disabled = !st.moves.length;
    if (window.variaRendered) window.variaRendered(snapshot());
}

/* What the page shows, for the browser test: the moves of the list, the pieces drawn (cell,
 * letter, owner) and the position text. */
function snapshot() {
    const pieces = [...document.querySelectorAll('#board g.piece[data-cell]')]
        .map((g) => [g.dataset.cell, g.dataset.letter, Number(g.dataset.owner)]);
    return {
        version: G.version, plies: G.state.history.length, over: G.state.over,
        moves: G.state.history.filter((p) => p.out === undefined).map((p) => p.text), pieces, fen: $('fen').value,
    };
}

/* ---- the buttons --------------------------------------------------------------------------- */

async function newGame() {
    const name = $('game').value || G.layout.game;
    const same = name === G.layout.game;
    const body = { game: name, time: G.state.time, depth: G.state.depth };
    if (same) {
        body.seats = G.state.seats;
        body.options = {};
        for (const s of document.querySelectorAll('#options select')) body.options[s.dataset.option] = s.value;
    } else {
        body.seats = G.state.seats.slice(0, 1);
    }
    const old = G.id;
    try {
        adopt(await call('/api/new', body));
        say('');
        call('/api/close', { id: old }).catch(() => {});
    } catch (e) {
        say(e.message);
    }
}

async function save() {
    try {
        const r = await call('/api/save', { id: G.id });
        const a = html('a', { href: URL.createObjectURL(new Blob([r.text], { type: 'text/plain' })), download: r.file });
        a.click();
        URL.revokeObjectURL(a.href);
        say(G.layout.hidden ? 'Saved: the file holds every player\u2019s secrets.' : 'Saved.', true);
    } catch (e) {
        say(e.message);
    }
}

async function load(file) {
    try {
        const text = await file.text();
        const old = G.id;
        adopt(await call('/api/load', { text }));
        say(`Loaded ${file.name}.`, true);
        call('/api/close', { id: old }).catch(() => {});
    } catch (e) {
        say(e.message);
    }
}

async function listGames() {
    try {
        const r = await call('/api/games');
        const sel = $('game');
        sel.replaceChildren();
        for (const name of r.games) html('option', { value: name }, sel, name);
        sel.value = G.layout.game;
    } catch (e) {
        say(e.message);
    }
}

function bind() {
    const board = $('board');
    board.addEventListener('pointerdown', onPointerDown);
    board.addEventListener('pointermove', onPointerMove);
    board.addEventListener('pointerup', onPointerUp);
    board.addEventListener('pointercancel', () => { drag = null; renderBoard(); });
    $('game').addEventListener('change', newGame);
    $('new').addEventListener('click', newGame);
    $('undo').addEventListener('click', () => act('/api/undo', { version: G.version }));
    $('redo').addEventListener('click', () => act('/api/redo', { version: G.version }));
    $('flip').addEventListener('click', () => { view.flip = !view.flip; renderBoard(); renderHands(); });
    $('save').addEventListener('click', save);
    $('load').addEventListener('click', () => $('loadfile').click());
    $('loadfile').addEventListener('change', (e) => { if (e.target.files[0]) load(e.target.files[0]); e.target.value = ''; });
    $('rules').addEventListener('click', () => {
        $('rules-title').textContent = `Rules: ${G.layout.title}`;
        $('rules-frame').src = `/api/rules/${G.id}`;
        $('rulebook').hidden = false;
    });
    $('close-rules').addEventListener('click', () => { $('rulebook').hidden = true; });
    $('go').addEventListener('click', () => act('/api/go'));
    $('stop').addEventListener('click', () => act('/api/stop'));
    const limits = () => {
        const time = Number($('time').value), depth = Number($('depth').value);
        if (Number.isFinite(time) && Number.isInteger(depth)) act('/api/seats', { time, depth });
    };
    $('time').addEventListener('change', limits);
    $('depth').addEventListener('change', limits);
    $('cancel-choice').addEventListener('click', () => { $('chooser').hidden = true; clearPick(); renderBoard(); });
    window.addEventListener('resize', () => { if (G) renderBoard(); });
    $('cover-go').addEventListener('click', () => { shownViewer = G.state.viewer; renderCover(); });
    $('entry').addEventListener('submit', async (e) => {
        e.preventDefault();
        const text = $('movetext').value.trim();
        if (!text) return;
        say('');
        if (await act('/api/move', { move: text, version: G.version })) $('movetext').value = '';
    });
    document.addEventListener('keydown', (e) => {
        if (e.key !== 'Escape') return;
        $('chooser').hidden = true;
        $('rulebook').hidden = true;
        clearPick();
        renderBoard();
        renderOthers();
    });
}

/* The game of this tab (kept across a reload), or a new one:
 * ?game=NAME&seats=human,ai&time=S&depth=D&seed=N. */
async function start() {
    bind();
    const q = new URLSearchParams(location.search);
    const body = {};
    if (q.get('game')) body.game = q.get('game');
    if (q.get('seats')) body.seats = q.get('seats').split(',');
    if (q.get('time')) body.time = Number(q.get('time'));
    if (q.get('depth')) body.depth = Number(q.get('depth'));
    if (q.get('seed')) body.seed = Number(q.get('seed'));
    let g = null;
    const kept = sessionStorage.getItem('varia.id');
    if (kept && !q.toString()) {
        try { g = await call('/api/state', { id: kept, layout: true }); } catch (e) { g = null; }
    }
    try {
        if (!g) g = await call('/api/new', body);
    } catch (e) {
        say(e.message);
        return;
    }
    adopt(g);
    performance.mark('varia-board');
    listGames();
}

/* for the browser test: the game as the page holds it */
window.varia = { get game() { return G; }, get pick() { return pick; } };

start();
