// Share links and the timeline, as a learner meets them: every lesson reopens from its link
// with the same picture; the copied link opens the same run at the same time in a new page;
// Back and Forward walk through the learner's changes; the scrubber lands where it is asked
// and acting after a seek back forks the run; a knob change late in a busy run is built while
// the page shows its progress (and turning the knob back ends the build); a garbage link
// explains itself.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, useSiteAndBrowser, writtenAddress } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

const traceHash = (page) => page.evaluate(() => window.__streamlab.traceHash());
/** How the page's runs started, from zero or from a kept run (rehearsals apart). */
const runStarts = (page) => page.evaluate(() => {
  const { fromZero, fromKept } = window.__streamlab.runStarts();
  return { fromZero, fromKept };
});
const rehearsed = (page) => page.evaluate(() => window.__streamlab.runStarts().rehearsed);
const simMs = (page) => page.evaluate(() => window.__streamlab.simMs());
const playing = async (page) =>
  (await page.locator('.transport button.primary').innerText()).includes('Pause');

/** Lets the run play past `ms` of simulated time (`faster` times twice as fast), then pauses. */
async function playPastThenPause(page, ms, faster = 3) {
  await page.locator('.question').click();
  for (let i = 0; i < faster; i += 1) await page.keyboard.press('ArrowUp');
  if (!(await playing(page))) await page.keyboard.press('Space');
  await page.waitForFunction((t) => window.__streamlab.simMs() > t, ms, { timeout: 60_000 });
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.__streamlab.traceHash() !== '');
}

/** Moves the scrubber to `ms` as a learner dragging it would. */
async function seek(page, ms) {
  await page.locator('.scrubber-input').fill(String(ms));
  await page.waitForFunction((t) => window.__streamlab.simMs() === t, ms);
}

/**
 * A lesson opened by a link paused at `ms` (with a preset, if named), once it shows that time;
 * `options` as `openPage`'s.
 */
async function openPausedAt(slug, ms, preset, options) {
  const query = preset ? `preset=${preset}&t=${ms}` : `t=${ms}`;
  const visit = await openPage(env.browser, `${env.site.url}#/${slug}?${query}`, options);
  await waitForApp(visit.page);
  await visit.page.waitForFunction((t) => window.__streamlab.simMs() === t, ms, { timeout: 60_000 });
  return visit;
}

/**
 * The storm at fifty minutes: a new setting there simulates fifty busy minutes again,
 * long enough on any machine for the page to show the build's progress.
 */
const openStormAtFiftyMinutes = () => openPausedAt('rebalances', 3_000_000, 'rebalance-storm');

/**
 * Clicks the button of `selector` whose text includes `text` the moment the notice of a run
 * being built appears, so the click lands while it builds; resolves once clicked.
 */
const clickWhileBuilding = (page, selector, text) =>
  page.evaluate(([selector, text]) => new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector('.rebuild-notice')) return;
      observer.disconnect();
      [...document.querySelectorAll(selector)].find((b) => b.textContent.includes(text)).click();
      resolve(true);
    });
    observer.observe(document.body, { subtree: true, childList: true });
  }), [selector, text]);

/** The page shows the same run and picture as a fresh page of its link, at the same time. */
async function assertSameAsFresh(page, what) {
  const fresh = await openPage(env.browser, await writtenAddress(page));
  await waitForApp(fresh.page);
  await fresh.page.waitForFunction((t) => window.__streamlab.simMs() === t, await simMs(page));
  assert.equal(await traceHash(page), await traceHash(fresh.page), `${what}: the same run`);
  assert.equal(await picture(page), await picture(fresh.page), `${what}: the same picture`);
  await fresh.page.close();
}

/** Sets the partition count through its knob and waits for the picture to show it. */
async function setPartitionsOn(page, count) {
  await page.fill('#knob-partitions', String(count));
  await page.dispatchEvent('#knob-partitions', 'change');
  await page.waitForFunction((n) => document.querySelectorAll('svg.diagram g.partition').length === n, count);
}

/**
 * The picture a paused lesson shows: the stage's markup without the transport (the speed is
 * the viewer's choice, not part of the run) and without canvases, reduced to a short digest.
 */
const picture = (page) =>
  page.evaluate(async () => {
    const stage = document.querySelector('.stage').cloneNode(true);
    stage.querySelectorAll('canvas, .transport').forEach((c) => c.remove());
    // A patched element may list its attributes in another order than a fresh one; the
    // picture is the same, so compare them sorted.
    for (const element of stage.querySelectorAll('*')) {
      const attributes = [...element.attributes].map((a) => [a.name, a.value]).sort();
      for (const [name] of attributes) element.removeAttribute(name);
      for (const [name, value] of attributes) element.setAttribute(name, value);
    }
    const bytes = new TextEncoder().encode(stage.innerHTML);
    const digest = await crypto.subtle.digest('SHA-256', bytes);
    return `${bytes.length} bytes, ${[...new Uint8Array(digest)].map((b) => b.toString(16)).join('')}`;
  });

test('every lesson reopens from its link with the same run and picture', { timeout: 240_000 }, async () => {
  const first = await openPage(env.browser, env.site.url);
  await waitForApp(first.page);
  const slugs = await first.page.evaluate(() =>
    [...document.querySelectorAll('.site-header a[href^="#/"]')]
      .map((a) => a.getAttribute('href').slice(2))
      // `#/` is the gallery, not a lesson.
      .filter((slug) => slug !== ''),
  );
  await first.page.close();
  assert.ok(slugs.length >= 4, `the site lists its lessons: ${slugs}`);
  for (const slug of slugs) {
    const visit = await openPage(env.browser, `${env.site.url}#/${slug}`);
    const { page } = visit;
    await waitForApp(page);
    // At the lesson's own speed: a batch in flight is drawn where it is after a fixed wall
    // time, so the speed (the viewer's, not part of the link) moves it.
    await playPastThenPause(page, 2500, 0);
    const at = await simMs(page);
    const hash = await traceHash(page);
    const drawn = await picture(page);
    const address = await writtenAddress(page);
    assert.match(address, new RegExp(`#/${slug}\\?s=2\\.[A-Za-z0-9_-]+&t=${at}$`), `${slug}: ${address} at ${at}`);
    await page.reload();
    await waitForApp(page);
    await page.waitForFunction((t) => window.__streamlab.simMs() === t, at);
    assert.equal(await playing(page), false, `${slug}: a link with a time opens paused`);
    assert.equal(await traceHash(page), hash, `${slug}: same run after reload`);
    assert.equal(await picture(page), drawn, `${slug}: same picture after reload`);
    assertQuiet(visit);
    await page.close();
  }
});

test('the copied link opens the same run at the same time in a new page', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/rebalances`);
  const { page } = visit;
  await waitForApp(page);
  await page.fill('#knob-g0-members', '4');
  await page.dispatchEvent('#knob-g0-members', 'change');
  await playPastThenPause(page, 6000);
  await page.locator('.member-actions button', { hasText: 'crash' }).first().click();
  await page.locator('.question').click();
  const crashedAt = await simMs(page);
  for (let i = 0; i < 30; i += 1) await page.keyboard.press('ArrowRight');
  // Yew handles the key presses after they are dispatched: wait for the last of the 30 steps
  // (100 ms each) rather than the first moment the address and the clock agree.
  await page.waitForFunction(
    (t) => window.__streamlab.simMs() === t && location.hash.endsWith(`&t=${t}`),
    crashedAt + 30 * 100,
  );
  const at = await simMs(page);
  const copied = await page.locator('.share-url').inputValue();
  assert.ok(copied.endsWith(`&t=${at}`), `${copied} at ${at}`);
  assert.ok(copied.split('#')[1].length < 200, `a short link: ${copied}`);
  const other = await openPage(env.browser, copied);
  await waitForApp(other.page);
  await other.page.waitForFunction((t) => window.__streamlab.simMs() === t, at);
  assert.equal(await traceHash(other.page), await traceHash(page), 'same run, bit for bit');
  assert.equal(await other.page.locator('svg.diagram g.member').count(), 4);
  assertQuiet(visit);
  assertQuiet(other);
  await page.close();
  await other.page.close();
});

test('Back and Forward walk through the learner\'s changes', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/partitions`);
  const { page } = visit;
  await waitForApp(page);
  const partitions = () => page.locator('svg.diagram g.partition').count();
  await page.locator('.question').click();
  await page.keyboard.press('ArrowUp');
  await page.locator('.speed output', { hasText: '2×' }).waitFor();
  const speed = await page.locator('.transport').innerText();
  await page.fill('#knob-partitions', '3');
  await page.dispatchEvent('#knob-partitions', 'change');
  await page.waitForFunction(() => document.querySelectorAll('svg.diagram g.partition').length === 3);
  // Writing the address is not navigating: the playground keeps its state (the speed).
  assert.equal(await page.locator('.transport').innerText().then((t) => t.includes('2×')), speed.includes('2×'));
  await page.waitForTimeout(1200);
  await page.fill('#knob-partitions', '9');
  await page.dispatchEvent('#knob-partitions', 'change');
  await page.waitForFunction(() => document.querySelectorAll('svg.diagram g.partition').length === 9);
  // A learner's Back comes after the address bar holds the change, a frame after its picture.
  await writtenAddress(page);
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll('svg.diagram g.partition').length === 3);
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll('svg.diagram g.partition').length === 6);
  assert.equal(new URL(page.url()).hash, '#/partitions', 'back to the address the page opened with');
  await page.goForward();
  await page.waitForFunction(() => document.querySelectorAll('svg.diagram g.partition').length === 3);
  assert.equal(await partitions(), 3);
  assertQuiet(visit);
  await page.close();
});

test('going back to a setting shows that setting\'s run, wherever the clock has moved since', { timeout: 120_000 }, async () => {
  // The page keeps the runs it left (a knob turned back, Back in the browser, costs a seek
  // instead of a run from zero): what comes back must be the scenario's run at the new time.
  const visit = await openPausedAt('rebalances', 20_000);
  const { page } = visit;
  const setPartitions = (count) => setPartitionsOn(page, count);
  await setPartitions(7);
  await seek(page, 35_000);
  // A change within a second of the last replaces its history entry; this one is its own.
  await page.waitForTimeout(1200);
  await setPartitions(6);
  assert.equal(await simMs(page), 35_000);
  await assertSameAsFresh(page, 'a knob turned back after a seek');
  await writtenAddress(page);
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll('svg.diagram g.partition').length === 7);
  await page.waitForFunction(() => window.__streamlab.simMs() === 35_000);
  await assertSameAsFresh(page, 'Back to the earlier setting');
  assertQuiet(visit);
  await page.close();
});

/**
 * Runs in the page: from now on, records every change to the stage (nodes, attributes, text)
 * and notes which charts are drawn again (each drawing begins with its paper, a rectangle
 * from the corner); returns whether the page has rehearsed yet and each chart's pixels now.
 * `window.stageWatch.report()` returns the changes and each chart's pixels then.
 */
function watchStage() {
  const stage = document.querySelector('.stage');
  const charts = () => [...stage.querySelectorAll('canvas')];
  const changes = [];
  new MutationObserver((records) => {
    for (const r of records) changes.push(`${r.type} ${r.attributeName ?? ''} in ${r.target.nodeName}.${r.target.className?.baseVal ?? r.target.className ?? ''}`);
  }).observe(stage, { subtree: true, childList: true, attributes: true, characterData: true });
  const drawn = new Set();
  const fill = CanvasRenderingContext2D.prototype.fillRect;
  CanvasRenderingContext2D.prototype.fillRect = function noteDrawing(x, y, ...size) {
    if (x === 0 && y === 0 && stage.contains(this.canvas)) drawn.add(this.canvas);
    return fill.call(this, x, y, ...size);
  };
  const pixels = () => charts().map((canvas) => canvas.toDataURL());
  window.stageWatch = { chartsDrawn: () => drawn.size, report: () => ({ changes, charts: pixels() }) };
  return { rehearsed: window.__streamlab.runStarts().rehearsed, charts: pixels() };
}

/** Resolves once the browser has painted a frame. */
const afterNextPaint = (page) => page.evaluate(() => new Promise((done) => {
  requestAnimationFrame(() => setTimeout(done, 0));
}));

/** How long the storm's rehearsal took to finish once its page showed fifty minutes. */
let rehearsalMs = 0;

test('a page opened paused rehearses a knob change unseen: the same picture, and no run counted', { timeout: 180_000 }, async () => {
  // Once its first picture is painted, a paused page builds its run again from zero in idle
  // time and draws it anew, so that the learner's first change meets code the browser has
  // already compiled. The learner must see nothing of it: not a node, attribute or text of
  // the stage changes, and the charts, drawn again, hold the same pixels. A window tall enough
  // for the whole stage, so that the charts are on screen and drawn again at once.
  const visit = await openPausedAt('rebalances', 3_000_000, 'rebalance-storm', {
    setUp: (page) => page.setViewportSize({ width: 1280, height: 2800 }),
  });
  const { page } = visit;
  const hash = await traceHash(page);
  const starts = await runStarts(page);
  // Watching starts in one task, which the rehearsal cannot finish in the middle of (a
  // screenshot of the stage takes longer than some machines take to rehearse).
  const watching = await page.evaluate(watchStage);
  assert.equal(watching.rehearsed, 0, 'watched from before the rehearsal ends');
  assert.ok(watching.charts.length > 0, 'the lesson has charts');
  const waitedFrom = Date.now();
  await page.waitForFunction(() => window.__streamlab.runStarts().rehearsed === 1, undefined, { timeout: 120_000 });
  rehearsalMs = Date.now() - waitedFrom;
  await page.waitForFunction((count) => window.stageWatch.chartsDrawn() >= count, watching.charts.length);
  await afterNextPaint(page);
  const seen = await page.evaluate(() => window.stageWatch.report());
  assert.deepEqual(seen.changes, [], 'nothing in the stage changes');
  assert.ok(seen.charts.every((pixels, i) => pixels === watching.charts[i]), 'every chart, drawn again, has the same pixels');
  assert.equal(await traceHash(page), hash, 'the same run');
  assert.equal(await simMs(page), 3_000_000, 'at the same time');
  assert.deepEqual(await runStarts(page), starts, 'not counted as a run the learner asked for');
  await page.waitForTimeout(1_000);
  assert.equal(await rehearsed(page), 1, 'once');
  assertQuiet(visit);
  await page.close();
});

test('the learner acting before the rehearsal ends it ends it for good', { timeout: 180_000 }, async () => {
  const visit = await openStormAtFiftyMinutes();
  const { page } = visit;
  // The scrubber moved in the same task as the check that the rehearsal is still under way,
  // as a learner's drag would move it (the page takes the seek before any timer of its own).
  const underWay = await page.evaluate((ms) => {
    const building = window.__streamlab.runStarts().rehearsed === 0;
    const scrubber = document.querySelector('.scrubber-input');
    scrubber.value = String(ms);
    scrubber.dispatchEvent(new Event('input', { bubbles: true }));
    return building;
  }, 2_950_000);
  assert.ok(underWay, 'the seek comes while the rehearsal is under way');
  await page.waitForFunction((t) => window.__streamlab.simMs() === t, 2_950_000);
  // Twice as long as the whole rehearsal took on the page above: long enough to have finished.
  await page.waitForTimeout(Math.max(3_000, 2 * rehearsalMs));
  assert.equal(await rehearsed(page), 0, 'nothing rehearsed after a seek');
  assertQuiet(visit);
  await page.close();
});

test('a knob\'s next step, once the page has been idle, is a kept run equal to a fresh one', { timeout: 120_000 }, async () => {
  // After a knob change the page builds the runs one step either side in idle time; the next
  // step then starts from one of them instead of from zero, and must be that setting's run.
  const visit = await openPausedAt('partitions', 30_000);
  const { page } = visit;
  const setPartitions = (count) => setPartitionsOn(page, count);
  await setPartitions(7);
  await page.waitForFunction(() => window.__streamlab.nearbyPending() === 0);
  const before = await runStarts(page);
  await setPartitions(8);
  const after = await runStarts(page);
  assert.deepEqual(after, { fromZero: before.fromZero, fromKept: before.fromKept + 1 }, 'the step up was prepared');
  await page.waitForFunction(() => window.__streamlab.nearbyPending() === 0);
  await setPartitions(9);
  assert.deepEqual(await runStarts(page), { fromZero: before.fromZero, fromKept: before.fromKept + 2 });
  assert.equal(await simMs(page), 30_000);
  await assertSameAsFresh(page, 'a prepared step');
  assertQuiet(visit);
  await page.close();
});

test('a knob change late in a busy run shows its progress, keeps a second change, and ends on the fresh run', { timeout: 180_000 }, async () => {
  // Far longer than a frame, so the page builds the run in slices and says so meanwhile.
  const visit = await openStormAtFiftyMinutes();
  const { page } = visit;
  // Whatever the stage shows while the notice is up, recorded as it changes; the moment the
  // notice first appears, a second knob changes, so it lands while the first is building.
  await page.evaluate(() => {
    window.rebuildSeen = [];
    new MutationObserver(() => {
      const notice = document.querySelector('.rebuild-notice');
      if (!notice) return;
      if (window.rebuildSeen.length === 0) {
        const members = document.querySelector('#knob-g0-members');
        members.value = '5';
        members.dispatchEvent(new Event('change', { bubbles: true }));
      }
      window.rebuildSeen.push({
        text: notice.innerText,
        dimmed: document.querySelector('.stage').classList.contains('rebuilding'),
        partitions: document.querySelector('#knob-partitions').value,
        drawn: document.querySelectorAll('svg.diagram g.partition').length,
      });
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const before = await runStarts(page);
  const drawnBefore = await page.locator('svg.diagram g.partition').count();
  // Not a step either side of the current setting, so nothing was prepared for it.
  const partitions = drawnBefore + 3;
  await page.fill('#knob-partitions', String(partitions));
  await page.dispatchEvent('#knob-partitions', 'change');
  await page.waitForFunction(() => window.rebuildSeen.length > 0);
  await page.waitForSelector('.rebuild-notice', { state: 'detached', timeout: 60_000 });
  const seen = await page.evaluate(() => window.rebuildSeen);
  assert.ok(seen.length > 0, 'the notice was on screen');
  assert.match(seen[0].text, /Simulating the new setting from 0 s[\s\S]* of 3000\.0 s/);
  assert.ok(seen.every((s) => s.dimmed), 'the previous picture is dimmed meanwhile');
  assert.ok(seen.every((s) => s.partitions === String(partitions)), 'the knob shows the new setting');
  assert.ok(seen.every((s) => s.drawn === drawnBefore), 'the previous picture stays until the new one');
  assert.equal(await page.locator('svg.diagram g.partition').count(), partitions);
  assert.equal(await page.inputValue('#knob-g0-members'), '5');
  assert.equal(await simMs(page), 3_000_000, 'the clock held');
  const after = await runStarts(page);
  assert.equal(after.fromZero, before.fromZero + 1, 'one run built, for both changes');
  await assertSameAsFresh(page, 'a run built in slices');
  assertQuiet(visit);
  await page.close();
});

test('a knob turned back while its change builds ends the build, and turned again goes on from the part built', { timeout: 180_000 }, async () => {
  const visit = await openStormAtFiftyMinutes();
  const { page } = visit;
  const hashBefore = await traceHash(page);
  const startsBefore = await runStarts(page);
  const original = await page.inputValue('#knob-partitions');
  const partitions = String(Number(original) + 5);
  // The moment the notice appears, the knob goes back to the setting on screen.
  const turnedBack = page.evaluate((value) => new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector('.rebuild-notice')) return;
      observer.disconnect();
      const knob = document.querySelector('#knob-partitions');
      knob.value = value;
      knob.dispatchEvent(new Event('change', { bubbles: true }));
      resolve(true);
    });
    observer.observe(document.body, { subtree: true, childList: true });
  }), original);
  await page.fill('#knob-partitions', partitions);
  await page.dispatchEvent('#knob-partitions', 'change');
  assert.equal(await turnedBack, true);
  await page.waitForSelector('.rebuild-notice', { state: 'detached', timeout: 5_000 });
  assert.equal(await page.inputValue('#knob-partitions'), original);
  assert.equal(await traceHash(page), hashBefore, 'the run on screen stays');
  assert.equal(await simMs(page), 3_000_000);
  assert.deepEqual(await runStarts(page), startsBefore,
    'no run was finished for the setting left');
  // The same change again: the part built before was kept, so the build starts from there
  // (and what is left may be short enough to show no notice; one shown names its start).
  await page.evaluate(() => {
    window.noticesSeen = [];
    new MutationObserver(() => {
      const notice = document.querySelector('.rebuild-notice strong');
      if (notice) window.noticesSeen.push(notice.innerText);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.fill('#knob-partitions', partitions);
  await page.dispatchEvent('#knob-partitions', 'change');
  await page.waitForFunction((count) => document.querySelectorAll('svg.diagram g.partition').length === count,
    Number(partitions), { timeout: 60_000 });
  assert.equal(await page.locator('.rebuild-notice').count(), 0);
  for (const heading of await page.evaluate(() => window.noticesSeen)) {
    const from = heading.match(/^Simulating the new setting from (\d+\.\d) s$/);
    assert.ok(from && Number(from[1]) > 0, `continued from a time past zero: ${heading}`);
  }
  const startsAfter = await runStarts(page);
  assert.deepEqual(startsAfter, { ...startsBefore, fromKept: startsBefore.fromKept + 1 },
    'the run came from the part kept, not from zero');
  await assertSameAsFresh(page, 'a run continued from its kept part');
  assertQuiet(visit);
  await page.close();
});

test('stepping while a knob change is still building finishes it first, then steps', { timeout: 180_000 }, async () => {
  const visit = await openStormAtFiftyMinutes();
  const { page } = visit;
  const partitions = (await page.locator('svg.diagram g.partition').count()) + 4;
  const stepped = clickWhileBuilding(page, '.transport button', 'Step');
  await page.fill('#knob-partitions', String(partitions));
  await page.dispatchEvent('#knob-partitions', 'change');
  assert.equal(await stepped, true);
  await page.waitForFunction(() => window.__streamlab.simMs() === 3_000_100, undefined, { timeout: 60_000 });
  assert.equal(await page.locator('.rebuild-notice').count(), 0);
  assert.equal(await page.locator('svg.diagram g.partition').count(), partitions, 'the step went on with the new setting');
  await assertSameAsFresh(page, 'a step after a run built at once');
  assertQuiet(visit);
  await page.close();
});

test('a preset picked while a knob change is still building replaces it without finishing it', { timeout: 180_000 }, async () => {
  const visit = await openStormAtFiftyMinutes();
  const { page } = visit;
  const before = await runStarts(page);
  const picked = clickWhileBuilding(page, '.presets button', 'One restart stops everyone');
  await page.fill('#knob-partitions', '20');
  await page.dispatchEvent('#knob-partitions', 'change');
  assert.equal(await picked, true);
  await page.waitForFunction(() => window.__streamlab.simMs() < 3_000_000);
  assert.equal(await page.locator('.rebuild-notice').count(), 0);
  assert.equal(await page.inputValue('#knob-partitions'), '6', 'the preset\'s setting, not the one being built');
  const after = await runStarts(page);
  assert.equal(after.fromZero, before.fromZero + 1, 'only the preset\'s run was built');
  assertQuiet(visit);
  await page.close();
});

test('the scrubber lands where it is asked, and acting in the past forks', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/rebalances`);
  const { page } = visit;
  await waitForApp(page);
  await playPastThenPause(page, 40_000);
  // The preset restarts c2 at 20 s: a leave and a start, and rebalances around them.
  assert.equal(await page.locator('.scrubber-mark.action').count(), 2);
  assert.ok((await page.locator('.scrubber-mark.rebalance').count()) >= 2);
  const end = await simMs(page);
  await seek(page, 12_000);
  const pastHash = await traceHash(page);
  await seek(page, 30_000);
  await seek(page, 12_000);
  assert.equal(await traceHash(page), pastHash, 'the same moment, whichever way it was reached');
  await screenshot(page, 'timeline-scrubber-in-the-past');
  assert.match(await page.locator('.scrubber-legend').innerText(), /In the past/);

  const fresh = await openPage(env.browser, await writtenAddress(page));
  await waitForApp(fresh.page);
  await fresh.page.waitForFunction(() => window.__streamlab.simMs() === 12_000);
  assert.equal(await traceHash(fresh.page), pastHash, 'a seek equals a run from zero to there');
  await fresh.page.close();

  await page.locator('.member-actions button', { hasText: 'crash' }).first().click();
  await page.waitForFunction(() => !location.hash.includes('t=40'));
  // The restart seen after 12 s is gone; the crash at 12 s is the only injected event.
  assert.equal(await page.locator('.scrubber-mark.action').count(), 1);
  assert.ok(end > 12_000);
  await screenshot(page, 'timeline-scrubber-forked');
  assertQuiet(visit);
  await page.close();
});

test('a garbage link or time shows a message and the lesson\'s default', { timeout: 90_000 }, async () => {
  for (const [query, pattern] of [
    ['s=2.garbage!!&t=5000', /could not be read.*default scenario/s],
    ['s=2.AAAA', /could not be read.*default scenario/s],
    ['t=soon', /time t="soon".*opening at the start/s],
  ]) {
    const visit = await openPage(env.browser, `${env.site.url}#/rebalances?${query}`);
    const { page } = visit;
    await waitForApp(page);
    const banner = page.locator('.error-banner');
    await banner.waitFor();
    assert.match(await banner.innerText(), pattern, query);
    assert.equal(await page.locator('svg.diagram g.member').count(), 6, 'the lesson\'s default group');
    assertQuiet(visit);
    await page.close();
  }
});

test('a huge address is quoted in a few dozen characters, and the page stays as wide as the window', { timeout: 120_000 }, async () => {
  const huge = 'A'.repeat(200 * 1024);
  for (const [address, pattern] of [
    [`#/s=${huge}`, /no lesson called "s=AAAA[^"]*"…/],
    [`#/partitions?preset=${huge}`, /no preset called "AAAA[^"]*"…/],
    [`#/rebalances?t=${huge}`, /time t="AAAA[^"]*"…/],
    [`#/windows?preset=${huge}`, /no preset called "AAAA[^"]*"…/],
  ]) {
    const visit = await openPage(env.browser, `${env.site.url}${address}`);
    const { page } = visit;
    await waitForApp(page);
    const banner = page.locator('.error-banner');
    await banner.waitFor();
    const text = await banner.innerText();
    const label = address.slice(0, 30);
    // Length first: a failing match would print the whole banner.
    assert.ok(text.length < 200, `${label}: the banner says ${text.length} characters`);
    assert.match(text, pattern, label);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${label}: the page is ${overflow} px wider than the window`);
    if (address.startsWith('#/s=')) await screenshot(page, 'huge-address');
    assertQuiet(visit);
    await page.close();
  }
});
