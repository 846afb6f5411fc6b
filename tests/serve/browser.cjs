/* browser.cjs - the browser test of `varia serve`: Debian's Chromium, headless, driven by
 * puppeteer-core. It plays chess, Ultima, Ultimate Chess (4 players) and Above and Below on the
 * page by clicks (a few moves dragged, the first one typed) against the computer, to the end of the
 * game or 40 plies, and after every move checks the pieces drawn and the position text shown
 * against `varia fen GAME --moves ...` of the same moves. Screenshots go to OUT/GAME.png.
 * With --paint it measures instead how long each shipped game's board takes to appear (and fails
 * over one second); with --doc it takes the picture of docs/playing.md (OUT/serve-doc.png).
 * Usage: node browser.cjs URL VARIA OUT [--paint | --doc]   (PUPPETEER_DIR: where npm installed it) */
'use strict';

const { execFile } = require('child_process');
const fs = require('fs');
const path = require('path');
const puppeteer = require(path.resolve(process.env.PUPPETEER_DIR, 'node_modules', 'puppeteer-core'));

const [base, varia, outDir, mode] = process.argv.slice(2);
const GAMES = [
    { name: 'chess', seats: ['human', 'ai'] },
    { name: 'ultima', seats: ['human', 'ai'] },
    { name: 'ultimate-chess-4p', seats: ['human', 'ai', 'ai', 'ai'] },
    { name: 'above-below', seats: ['human', 'ai'] },
];
const MAX_PLIES = 40;
const WAIT_MS = 30000;

let seed = 12345;
function random() {
    seed ^= seed << 13; seed >>>= 0;
    seed ^= seed >>> 17;
    seed ^= seed << 5; seed >>>= 0;
    return seed / 4294967296;
}

function fail(message) { throw new Error(message); }

/* The pieces of position text's board field, cell name -> [letter, owner], as fen.c writes it:
 * boards apart by '|', rows from the top apart by '/', a run of empty cells as its length, ':N'
 * before a piece of the Nth owner (else upper case is the first player's, lower case the
 * second's), '+' before a promoted type's letter, '~' after a promoted piece, holes left out. */
function fenPieces(fen, layout) {
    const field = fen.split(' ')[0].replace(/\[[^\]]*\]$/, '');
    const texts = field.split('|');
    if (texts.length !== layout.boards.length) fail(`position text has ${texts.length} boards: ${fen}`);
    const pieces = new Map();
    texts.forEach((text, b) => {
        const bd = layout.boards[b], rows = text.split('/');
        if (rows.length !== bd.height) fail(`board ${b} of the position text has ${rows.length} rows: ${fen}`);
        rows.forEach((row, r) => {
            const y = bd.height - 1 - r;
            const names = layout.cells.filter((c) => c.board === b && c.y === y).sort((p, q) => p.x - q.x).map((c) => c.name);
            let k = 0, i = 0;
            while (i < row.length) {
                if (/[0-9]/.test(row[i])) {
                    let n = '';
                    while (i < row.length && /[0-9]/.test(row[i])) n += row[i++];
                    k += Number(n);
                    continue;
                }
                let owner = null;
                if (row[i] === ':') {
                    let n = '';
                    for (i++; /[0-9]/.test(row[i]); i++) n += row[i];
                    owner = Number(n) - 1;
                }
                if (row[i] === '+') i++;
                const letter = row[i++];
                if (row[i] === '~') i++;
                if (owner === null) owner = letter === letter.toUpperCase() ? 0 : 1;
                if (k >= names.length) fail(`row ${r + 1} of board ${b} is too long: ${fen}`);
                pieces.set(names[k++], [letter.toUpperCase(), owner]);
            }
            if (k !== names.length) fail(`row ${r + 1} of board ${b} has ${k} cells, not ${names.length}: ${fen}`);
        });
    });
    return pieces;
}

function run(file, args) {
    return new Promise((ok, no) => execFile(file, args, { encoding: 'utf8' }, (err, stdout, stderr) => {
        if (err) no(new Error(`${file} ${args.join(' ')}: ${stderr || err.message}`));
        else ok(stdout.trim());
    }));
}

/* One position the page showed against the engine's after the same moves. */
async function checkSnapshot(game, layout, snap) {
    const args = ['fen', game];
    if (snap.moves.length) args.push('--moves', snap.moves.join(','));
    const want = await run(varia, args);
    const where = `${game} after ${snap.moves.length} moves (${snap.moves.join(' ')})`;
    if (snap.fen !== want) fail(`${where}: the page shows the position text\n  ${snap.fen}\nbut varia fen gives\n  ${want}`);
    const expected = fenPieces(want, layout);
    const drawn = new Map(snap.pieces.map(([cell, letter, owner]) => [cell, [letter, owner]]));
    for (const [cell, [letter, owner]] of expected) {
        const d = drawn.get(cell);
        if (!d || d[0] !== letter || d[1] !== owner) {
            fail(`${where}: ${cell} should hold ${letter} of owner ${owner}, the page draws ${d ? d.join(' of owner ') : 'nothing'}`);
        }
    }
    for (const cell of drawn.keys()) if (!expected.has(cell)) fail(`${where}: the page draws a piece on the empty cell ${cell}`);
}

async function cellCentre(page, c) {
    return page.$eval(`#board rect[data-c="${c}"]`, (e) => {
        const r = e.getBoundingClientRect();
        return [r.x + r.width / 2, r.y + r.height / 2];
    });
}

/* Waits until a person may move again (or the game is over) at a version after `after`. */
async function settled(page, after) {
    await page.waitForFunction((v) => {
        const g = window.varia.game;
        return g && g.version > v && (g.state.over || (g.state.moves.length > 0 && !g.state.thinking));
    }, { timeout: WAIT_MS, polling: 25 }, after);
}

/* Makes one random legal move the way a person would: typed, dragged, or cell by cell. */
async function humanMove(page, st, how) {
    const onBoard = st.moves.filter((m) => m.path.length);
    const pool = onBoard.length ? onBoard : st.moves;
    const m = pool[Math.floor(random() * pool.length)];
    if (how === 'type') {
        await page.click('#movetext', { clickCount: 3 });
        await page.type('#movetext', m.san);
        await page.keyboard.press('Enter');
    } else if (!m.path.length) {
        await page.click(`#others button[title="${m.text}"]`);
    } else if (how === 'drag' && m.path.length === 2) {
        const [x0, y0] = await cellCentre(page, m.path[0]);
        const [x1, y1] = await cellCentre(page, m.path[1]);
        await page.mouse.move(x0, y0);
        await page.mouse.down();
        await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 4 });
        await page.mouse.move(x1, y1, { steps: 4 });
        await page.mouse.up();
    } else {
        for (const c of m.path) {
            const [x, y] = await cellCentre(page, c);
            await page.mouse.click(x, y);
        }
    }
    /* several moves on the same cells (a promotion, a kind of move): the chooser asks */
    if (how !== 'type' && m.path.length && await page.$eval('#chooser', (e) => !e.hidden)) {
        await page.click(`#choices button[data-text="${m.text}"]`);
    }
    return m;
}

async function playGame(page, spec, snaps) {
    const url = `${base}?game=${spec.name}&seats=${spec.seats.join(',')}&depth=1&time=0&seed=1`;
    snaps.length = 0;
    const t0 = Date.now();
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName('varia-board').length > 0, { timeout: WAIT_MS });
    const paint = await page.evaluate(() => performance.getEntriesByName('varia-board')[0].startTime);
    const layout = await page.evaluate(() => window.varia.game.layout);
    await settled(page, -1);
    let moves = 0;
    while (true) {
        const { state: st, version } = await page.evaluate(() => window.varia.game);
        if (st.over || st.history.length >= MAX_PLIES) break;
        const how = moves === 0 ? 'type' : moves % 3 === 2 ? 'drag' : 'click';
        const m = await humanMove(page, st, how);
        await settled(page, version);
        const after = await page.evaluate(() => window.varia.game.state.history);
        const mine = after[st.history.length];
        if (!mine || mine.text !== m.text) fail(`${spec.name}: the page played ${mine ? mine.text : 'nothing'}, not ${m.text} (${how})`);
        moves++;
    }
    const final = await page.evaluate(() => window.varia.game.state);
    /* every position from the start to the last was shown, and each is the engine's */
    const seen = new Map();
    for (const s of snaps) seen.set(s.plies, s);
    for (let p = 0; p <= final.history.length; p++) {
        /* (a move that defeats a player is shown with the defeat, which the game plays at once) */
        const defeat = (h) => h && h.out !== undefined;
        if (!seen.has(p) && !defeat(final.history[p - 1]) && !defeat(final.history[p])) {
            const around = final.history.slice(Math.max(0, p - 4), p + 3).map((h) => JSON.stringify(h)).join(' ');
            const shown = snaps.map((x) => `${x.plies}@${x.version}`).join(' ');
            fail(`${spec.name}: the page never showed the position after ${p} plies (plies ${p - 3}..: ${around}); ` +
                `it showed ${shown}`);
        }
    }
    await Promise.all([...seen.values()].map((s) => checkSnapshot(spec.name, layout, s)));
    await page.screenshot({ path: path.join(outDir, `${spec.name}.png`) });
    const end = final.over ? final.result : `${final.history.length} plies`;
    console.log(`browser: ${spec.name}: ${moves} moves clicked, ${seen.size} positions checked against varia fen, ` +
        `${end}; board drawn ${Math.round(paint)} ms after navigation (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    return paint;
}

/* Undo, redo and the rulebook on a game of chess under way. */
async function checkButtons(page, snaps) {
    const before = await page.evaluate(() => window.varia.game.state.history.length);
    let version = await page.evaluate(() => window.varia.game.version);
    await page.click('#undo');
    await page.waitForFunction((v) => window.varia.game.version > v, { timeout: WAIT_MS }, version);
    const undone = await page.evaluate(() => window.varia.game.state.history.length);
    if (undone >= before) fail(`undo left ${undone} plies of ${before}`);
    await checkSnapshot('chess', await page.evaluate(() => window.varia.game.layout), snaps[snaps.length - 1]);
    version = await page.evaluate(() => window.varia.game.version);
    await page.click('#redo');
    await page.waitForFunction((v) => window.varia.game.version > v, { timeout: WAIT_MS }, version);
    const redone = await page.evaluate(() => window.varia.game.state.history.length);
    if (redone !== before) fail(`redo gave ${redone} plies, not ${before}`);
    await page.click('#rules');
    const frame = await (await page.waitForSelector('#rules-frame')).contentFrame();
    await frame.waitForFunction(() => document.readyState === 'complete' && document.body && document.body.innerText.includes('Pieces'),
        { timeout: WAIT_MS });
    const words = await frame.evaluate(() => document.body.innerText);
    const names = (await page.evaluate(() => window.varia.game.layout.types)).map((t) => t.name);
    const missing = names.filter((n) => !words.includes(n));
    if (missing.length) fail(`the rulebook does not name ${missing.join(', ')}`);
    await page.click('#close-rules');
    console.log('browser: undo, redo and the rulebook work');
}

/* The picture of docs/playing.md: a game of chess under way, a piece picked up. */
async function docPicture(page) {
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(`${base}?game=chess&seats=human,ai&depth=2&time=0&seed=1`);
    await settled(page, -1);
    for (const m of ['e4', 'Nf3', 'Bc4']) {
        const version = await page.evaluate(() => window.varia.game.version);
        await page.click('#movetext', { clickCount: 3 });
        await page.type('#movetext', m);
        await page.keyboard.press('Enter');
        await settled(page, version);
    }
    const st = await page.evaluate(() => window.varia.game.state);
    const knight = st.moves.find((m) => m.text.startsWith('b1'));
    const [x, y] = await cellCentre(page, knight.path[0]);
    await page.mouse.click(x, y);
    await page.screenshot({ path: path.join(outDir, 'serve-doc.png') });
    console.log(`doc: ${path.join(outDir, 'serve-doc.png')}`);
}

/* How long each shipped game's board takes to appear after the page is asked for, in a browser
 * that has shown the page once already. */
async function paintTimes(page) {
    const games = JSON.parse(await (await fetch(`${base}api/games`)).text()).games;
    await page.goto(`${base}?game=chess`);
    await page.waitForFunction(() => performance.getEntriesByName('varia-board').length > 0, { timeout: WAIT_MS });
    const times = [];
    for (const g of games) {
        await page.goto(`${base}?game=${g}&seats=human,human,human,human`.replace(/(,human)+$/, ''));
        await page.waitForFunction(() => performance.getEntriesByName('varia-board').length > 0, { timeout: WAIT_MS });
        times.push([await page.evaluate(() => performance.getEntriesByName('varia-board')[0].startTime), g]);
    }
    times.sort((a, b) => a[0] - b[0]);
    const ms = (t) => `${Math.round(t[0])} ms (${t[1]})`;
    console.log(`paint: ${times.length} games: fastest ${ms(times[0])}, median ${ms(times[times.length >> 1])}, ` +
        `slowest ${ms(times[times.length - 1])}`);
    for (const t of times) console.log(`paint: ${t[1]} ${Math.round(t[0])} ms`);
    const slow = times.filter((t) => t[0] >= 1000);
    if (slow.length) fail(`first paint over one second: ${slow.map(ms).join(', ')}`);
    return times;
}

(async () => {
    fs.mkdirSync(outDir, { recursive: true });
    const profile = fs.mkdtempSync(path.join(outDir, 'profile-'));
    const browser = await puppeteer.launch({
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
            '--disable-component-update', '--disable-sync', '--no-first-run', `--user-data-dir=${profile}`],
    });
    let failed = false;
    try {
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 900 });
        const errors = [];
        page.on('pageerror', (e) => errors.push(e.message));
        if (mode === '--paint') {
            await paintTimes(page);
        } else if (mode === '--doc') {
            await docPicture(page);
        } else {
            const snaps = [];
            await page.exposeFunction('variaRendered', (s) => snaps.push(s));
            for (const spec of GAMES) {
                await playGame(page, spec, snaps);
                if (spec.name === 'chess') await checkButtons(page, snaps);
            }
        }
        if (errors.length) fail(`the page threw: ${errors.join('; ')}`);
    } catch (e) {
        console.error(`browser: FAIL: ${e.message}`);
        failed = true;
    } finally {
        await browser.close();
        fs.rmSync(profile, { recursive: true, force: true });
    }
    process.exit(failed ? 1 : 0);
})();
