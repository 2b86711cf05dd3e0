// The course-page API, as a course page on another site uses it: tests/e2e/host-api.html,
// served from its own origin, frames a lesson of the built site and drives it with
// postMessage (load a link, seek, play, pause, get). The state the lesson posts back carries
// the same figures `streamlab simulate` prints for that link at that time; posts are
// throttled while it plays; a malformed command costs one console warning and nothing else;
// and the same calls work as window.streamlab on a lesson's own page.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { launchBrowser, openPage, repoRoot, screenshot, serveDist, waitForApp } from './harness.mjs';
import { assertQuiet } from './lesson-helpers.mjs';

const run = promisify(execFile);
const hostPage = new URL('./host-api.html', import.meta.url);
const cliPath = join(repoRoot, 'target', 'release', 'streamlab');

const STORM = '#/rebalances?preset=rebalance-storm';
const IDLE = '#/watermarks?preset=idle-partition-stalls';

let site;
let host;
let browser;

before(async () => {
  // The figures are checked against the CLI, which runs the same core natively.
  await access(cliPath).catch(() =>
    run('cargo', ['build', '--release', '--locked', '-p', 'streamlab-cli'], { cwd: repoRoot }));
  const root = process.env.STREAMLAB_DIST;
  site = await serveDist({ subPath: '/streamlab/', ...(root ? { root } : {}) });
  const html = await readFile(hostPage);
  host = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise((done) => host.listen(0, '127.0.0.1', done));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await site?.close();
  await new Promise((done) => host?.close(done));
});

/** The figures `streamlab simulate --link LINK [--at-ms T]` prints. */
async function cliFigures(link, atMs) {
  const args = ['simulate', '--link', link, ...(atMs === undefined ? [] : ['--at-ms', String(atMs)])];
  const { stdout } = await run(cliPath, args, { maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(stdout).figures;
}

/**
 * Opens the host page with the site's address and records what a course author would see:
 * errors and uncaught exceptions anywhere, requests leaving the two origins, and the
 * console warnings the lesson's frame logs.
 */
async function openHost() {
  const hostOrigin = `http://127.0.0.1:${host.address().port}`;
  const page = await browser.newPage();
  const visit = { page, problems: [], warnings: [], elsewhere: [] };
  page.on('pageerror', (e) => visit.problems.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') visit.problems.push(m.text());
    if (m.type() === 'warning' && m.location().url.startsWith(site.url)) visit.warnings.push(m.text());
  });
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (['data:', 'blob:'].includes(url.protocol) || [hostOrigin, site.origin].includes(url.origin)) {
      return route.continue();
    }
    visit.elsewhere.push(url.href);
    return route.abort('blockedbyclient');
  });
  await page.goto(`${hostOrigin}/?site=${encodeURIComponent(site.url)}`);
  visit.frame = await (await page.$('#lesson')).contentFrame();
  await visit.frame.locator('main.lesson').waitFor({ timeout: 30_000 });
  // The first state arrives once the lesson has drawn.
  await statesAfter(page, 0);
  return visit;
}

/** How many states the host page has received. */
const received = (page) => page.evaluate(() => lesson.states.length);

/** Waits until the host page has received more than `count` states; returns the newest. */
async function statesAfter(page, count) {
  await page.waitForFunction((n) => lesson.states.length > n, count, { timeout: 30_000 });
  return page.evaluate(() => lesson.states.at(-1));
}

/** Waits until the newest state the host page received matches `want` (a subset of fields). */
async function stateWith(page, want) {
  await page.waitForFunction(
    (w) => {
      const s = lesson.states.at(-1);
      return s !== undefined && Object.entries(w).every(([k, v]) => s[k] === v);
    },
    want,
    { timeout: 60_000 },
  );
  return page.evaluate(() => lesson.states.at(-1));
}

/** Polls `check` until it returns a truthy value (at most `limitMs`), and returns that value. */
async function eventually(check, what, limitMs = 20_000) {
  for (let waited = 0; ; waited += 100) {
    const value = await check();
    if (value) return value;
    if (waited >= limitMs) assert.fail(`never happened: ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

function assertCalm(visit) {
  assert.deepEqual(visit.elsewhere, [], 'requests outside the host and the site');
  assert.deepEqual(visit.problems, [], 'errors in the page or its frame');
}

test('a loaded link, sought to a time, shows the figures streamlab simulate prints', { timeout: 180_000 }, async () => {
  const visit = await openHost();
  const { page } = visit;
  const cases = [
    { link: IDLE, slug: 'watermarks', at: 75_000, nonZero: ['records_read', 'event_time_panes'] },
    { link: STORM, slug: 'rebalances', at: 60_000, nonZero: ['produced', 'search.rebalances', 'search.duplicated'] },
    { link: '#/windows?preset=late-record-many-panes', slug: 'windows', at: 40_000, nonZero: ['records_read'] },
  ];
  for (const { link, slug, at, nonZero } of cases) {
    await page.evaluate((l) => lesson.load(l), link);
    const loaded = await stateWith(page, { lesson: slug });
    assert.equal(loaded.playing, false, `${slug}: an embedded lesson opens paused`);
    await page.evaluate((t) => lesson.seek(t), at);
    const state = await stateWith(page, { lesson: slug, t_ms: at, playing: false });
    const expected = await cliFigures(link, at);
    assert.deepEqual(state.figures, expected, `${slug} at ${at} ms: the lesson's figures are the CLI's`);
    for (const path of nonZero) {
      const value = path.split('.').reduce((o, k) => o[k], state.figures);
      assert.ok(value > 0, `${slug}: ${path} is not zero (${value}), so the comparison means something`);
    }
    // The state's link reproduces what is on screen: the CLI reads it to the same figures.
    assert.match(state.link, new RegExp(`^#/${slug}\\?s=.*&t=${at}$`), 'a paused link carries the time');
    assert.deepEqual(await cliFigures(state.link), expected, `${slug}: the state's link reopens the same run`);
    // The host page shows it too.
    assert.match(await page.locator('#state').innerText(), new RegExp(`"t_ms": ${at}`));
    // And the frame shows the same time as the state says.
    assert.equal(await visit.frame.locator('.transport .clock').innerText(), `t = ${(at / 1000).toFixed(1)} s`);
  }
  // Loading keeps how the host shows the lesson (embedded, its childId for the height).
  assert.match(await visit.frame.evaluate(() => location.hash), /[?&]embed(&|$)/);
  assert.equal(await visit.frame.locator('.site-header').count(), 0, 'still embedded after a load');
  assertCalm(visit);
  await page.close();
});

test('play and pause show in the state, get is answered, and posts are throttled while playing', { timeout: 120_000 }, async () => {
  const visit = await openHost();
  const { page } = visit;
  const first = await page.evaluate(() => lesson.states.at(-1));
  assert.equal(first.lesson, 'rebalances');
  assert.equal(first.playing, false, 'an embedded lesson starts paused');
  assert.equal(first.t_ms, 0);
  assert.ok(first.figures.search && 'lag' in first.figures.search, 'figures per group.id');

  // get: answered with the same state while nothing moves.
  const before = await received(page);
  await page.evaluate(() => lesson.get());
  const answer = await statesAfter(page, before);
  assert.deepEqual(answer, first, 'get answers with the state as it is');

  await page.evaluate(() => lesson.play());
  await stateWith(page, { playing: true });
  assert.match(await visit.frame.locator('.transport button.primary').innerText(), /Pause/, 'the frame plays');
  const moving = await eventually(
    () => page.evaluate(() => lesson.states.at(-1).t_ms > 1000 && lesson.states.at(-1)),
    'states keep coming while it plays, with the time moving',
  );
  assert.equal(moving.playing, true);

  // Over one second of play: at least one post, and nowhere near one per animation frame.
  const count = await page.evaluate(async () => {
    const from = lesson.states.length;
    await new Promise((done) => setTimeout(done, 1000));
    return lesson.states.length - from;
  });
  assert.ok(count >= 1 && count <= 8, `state posts in one second of play: ${count}`);

  await page.evaluate(() => lesson.pause());
  const paused = await stateWith(page, { playing: false });
  assert.match(await visit.frame.locator('.transport button.primary').innerText(), /Play/, 'the frame is paused');
  assert.ok(paused.t_ms >= moving.t_ms, 'pausing keeps the time');
  assert.match(paused.link, new RegExp(`&t=${paused.t_ms}$`), 'the paused link carries the time');
  // Paused, get answers with the same state again.
  const n = await received(page);
  await page.evaluate(() => lesson.get());
  assert.deepEqual(await statesAfter(page, n), paused);

  // What the learner does in the frame is posted too: a step, a preset.
  await visit.frame.locator('.transport button', { hasText: 'Step' }).click();
  await stateWith(page, { t_ms: paused.t_ms + 100, playing: false });
  await visit.frame.locator('.presets button', { hasText: 'Fix: smaller max.poll.records' }).click();
  const picked = await eventually(
    () => page.evaluate((old) => { const s = lesson.states.at(-1); return s.link !== old && s.t_ms === 0 && s; }, paused.link),
    'the preset the learner picked is posted',
  );
  await page.evaluate(() => lesson.seek(60_000));
  const fixed = await stateWith(page, { t_ms: 60_000 });
  assert.equal(fixed.link.split('&t=')[0], picked.link.split('&t=')[0], 'the same scenario, paused later');
  assert.deepEqual(fixed.figures, await cliFigures('#/rebalances?preset=storm-fix-smaller-batches', 60_000));
  assert.equal(fixed.figures.search.duplicated, 0, 'the fix: no duplicates in the first minute');

  await screenshot(page, 'host-api');
  assertCalm(visit);
  await page.close();
});

test('a malformed command logs one warning in the frame; a message that is not ours, nothing', { timeout: 120_000 }, async () => {
  const visit = await openHost();
  const { page } = visit;
  const send = (message) => page.evaluate((m) => lesson.send(m), message);
  const warnings = (n) => eventually(() => visit.warnings.length >= n, `${n} warnings`);
  // Counted from here: Chromium has its own warnings about loading the page.
  visit.warnings.length = 0;

  await send({ streamlab: 'seek' });
  await warnings(1);
  assert.match(visit.warnings[0], /t_ms/, 'the warning says what is missing');
  await send({ streamlab: 'jump' });
  await warnings(2);
  assert.match(visit.warnings[1], /jump/, 'the warning names the unknown command');

  // Messages without the key belong to someone else: silence. A malformed command after
  // them shows they were read (a frame's console messages arrive in order).
  await send({ hello: 'world' });
  await send('pymxPYMxlessonxPYMxheightxPYMx600');
  await send(42);
  await send(null);
  await send({ streamlab: 'seek', t_ms: 'soon' });
  await warnings(3);
  assert.equal(visit.warnings.length, 3, `one warning per malformed command: ${visit.warnings.join(' | ')}`);
  for (const warning of visit.warnings) assert.match(warning, /^streamlab: /);

  // The lesson is unharmed: still at the start, paused, answering.
  const n = await received(page);
  await page.evaluate(() => lesson.get());
  const state = await statesAfter(page, n);
  assert.equal(state.t_ms, 0);
  assert.equal(state.playing, false);
  assert.equal(await visit.frame.locator('.panic-overlay').count(), 0, 'no panic');
  assertCalm(visit);
  await page.close();
});

test('window.streamlab drives a lesson on its own page; each call resolves with the state after it', { timeout: 120_000 }, async () => {
  const visit = await openPage(browser, `${site.url}${IDLE}`);
  const { page } = visit;
  const warnings = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  await waitForApp(page);
  await page.waitForFunction(() => window.streamlab?.get()?.lesson === 'watermarks');

  const [state, got] = await page.evaluate(async () => [await streamlab.seek(75_000), streamlab.get()]);
  assert.equal(state.t_ms, 75_000);
  assert.equal(state.playing, false, 'seeking pauses, as the scrubber does');
  assert.deepEqual(got, state, 'get() agrees at once');
  assert.deepEqual(state.figures, await cliFigures(IDLE, 75_000), 'the figures are the CLI\'s');
  assert.equal(await page.evaluate(() => location.hash), state.link, 'the address bar holds the state\'s link');

  // Past what a link can hold (an hour), a seek stops there.
  const far = await page.evaluate(() => streamlab.seek(1e12));
  assert.equal(far.t_ms, 3_600_000);
  assert.deepEqual(await cliFigures(far.link), far.figures, 'the link of the furthest time reopens');

  assert.equal((await page.evaluate(() => streamlab.play())).playing, true);
  assert.equal((await page.evaluate(() => streamlab.pause())).playing, false);

  // A malformed call: one warning, and the state as it is.
  const before = warnings.length;
  const unchanged = await page.evaluate(() => streamlab.seek('soon'));
  assert.equal(unchanged.playing, false);
  await eventually(() => warnings.length > before, 'a warning');
  assert.equal(warnings.length, before + 1);
  assert.match(warnings.at(-1), /^streamlab: ignored a command: seek takes t_ms/);

  // A lesson of the same family (the same bundle) loads in place.
  const WINDOWS = '#/windows?preset=four-windows';
  const loaded = await page.evaluate((l) => streamlab.load(l), WINDOWS);
  assert.equal(loaded.lesson, 'windows', 'load resolves once the lesson is on screen');
  // The loaded lesson takes the calls in its turn.
  const windows = await page.evaluate(() => streamlab.seek(60_000));
  assert.deepEqual(windows.figures, await cliFigures(WINDOWS, 60_000));
  // Loading the address the page already has mounts nothing again, and still resolves.
  const again = await page.evaluate(() => streamlab.load(location.hash));
  assert.equal(again.link, windows.link);
  // Another family's lesson lives in another bundle: the page loads again with it (the
  // call's promise goes with the old page), and the new page answers the calls.
  await page.evaluate((l) => { streamlab.load(l); }, STORM);
  await page.waitForFunction(() => window.streamlab?.get()?.lesson === 'rebalances');
  const storm = await page.evaluate(() => streamlab.seek(60_000));
  assert.deepEqual(storm.figures, await cliFigures(STORM, 60_000));
  assert.equal(await page.locator('.site-header').count(), 1, 'a page of the site stays one');
  assertQuiet(visit);
  await page.close();
});
