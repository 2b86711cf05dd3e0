// What a learner sees in each lesson: the diagram draws and moves, knobs change the picture, a
// share link reproduces the exact run, a broken link explains itself, the keyboard works, and
// the rebalance lesson shows its storm and its side-by-side comparison.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, canvasHasInk, useSiteAndBrowser, writtenAddress } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

const hooks = (page, name) => page.evaluate((n) => window.__streamlab[n](), name);

/** Pauses at exactly `ms` of simulated time: reset, then step in 100 ms steps. */
async function pauseAt(page, ms) {
  // Shortcuts stay out of text boxes, so move the focus off any knob first.
  await page.locator('.question').click();
  const playing = (await page.locator('.transport button.primary').innerText()).includes('Pause');
  if (playing) await page.keyboard.press('Space');
  await page.keyboard.press('r');
  for (let t = 0; t < ms; t += 100) await page.keyboard.press('ArrowRight');
  await page.waitForFunction((target) => window.__streamlab.simMs() === target, ms);
}

test('the first lesson animates records into partitions and out to members', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/partitions`);
  const { page } = visit;
  await waitForApp(page);
  await page.waitForFunction(() => window.__streamlab.simMs() > 2000);
  assert.equal(await page.locator('svg.diagram g.partition').count(), 6);
  assert.equal(await page.locator('svg.diagram g.member').count(), 3);
  const cellsDrawn = await page.evaluate(() =>
    [...document.querySelectorAll('svg.diagram .records path')].reduce((n, path) => n + path.getAttribute('d').split('M').length - 1, 0));
  assert.ok(cellsDrawn > 50, `record cells are drawn: ${cellsDrawn}`);
  assert.ok(await canvasHasInk(page, '.charts figure:nth-child(1) canvas'), 'the lag chart is drawn');
  assert.ok(await canvasHasInk(page, '.charts figure:nth-child(2) canvas'), 'the throughput chart is drawn');
  const before = await hooks(page, 'simMs');
  await page.waitForTimeout(500);
  assert.ok((await hooks(page, 'simMs')) > before, 'time moves while playing');
  await screenshot(page, 'lesson-partitions');
  assertQuiet(visit);
  await page.close();
});

/** The page point at the middle of the `slot`-th record cell (0 the oldest drawn) of row `p`. */
const cellMiddle = (page, p, slot) =>
  page.evaluate(([row, at]) => {
    const log = document.querySelectorAll('svg.diagram g.partition rect.log-bg')[row].getBoundingClientRect();
    const width = log.width / 24;
    return { x: log.left + width * (at + 0.5), y: log.top + log.height / 2 };
  }, [p, slot]);

/** The page point just under row `p`'s record cells, in the first group's lane, a third of the way in. */
const laneTop = (page, p) =>
  page.evaluate((row) => {
    const log = document.querySelectorAll('svg.diagram g.partition rect.log-bg')[row].getBoundingClientRect();
    return { x: log.left + log.width / 3, y: log.bottom + 4 };
  }, p);

/** The details the diagram shows for the record or lane under the pointer, or null. */
const pointerTip = (page) => page.evaluate(() => document.querySelector('svg.diagram .pointer-tip text')?.textContent ?? null);

test('paused, a record and a group\'s lane tell their details on hover; playing, the moving records carry none', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/partitions`);
  const { page } = visit;
  await waitForApp(page);
  await page.waitForFunction(() => window.__streamlab.simMs() > 1000);
  const newest = await cellMiddle(page, 0, 23);
  await page.mouse.move(newest.x, newest.y);
  await page.mouse.move(newest.x + 1, newest.y);
  await page.waitForTimeout(300);
  assert.equal(await pointerTip(page), null, 'no details while playing');
  await pauseAt(page, 3000);
  // The pointer has to move for the page to look under it again.
  await page.mouse.move(newest.x - 1, newest.y);
  await page.waitForFunction(() => document.querySelector('svg.diagram .pointer-tip text') !== null);
  const end = Number((await page.locator('svg.diagram text.leo').first().textContent()).replace('end ', ''));
  assert.match(await pointerTip(page), new RegExp(`^p0 offset ${end - 1}: key-\\d+, sent at \\d+\\.\\d{3} s$`), 'the newest record of p0');
  await screenshot(page, 'lesson-partitions-record-details');
  // An offset label sits on its record; the pointer on the label still finds the record.
  const label = page.locator('svg.diagram g.offsets').first().locator('text.offset').first();
  const labelled = await label.textContent();
  const box = await label.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction((o) => document.querySelector('svg.diagram .pointer-tip text')?.textContent.startsWith(`p0 offset ${o}:`), labelled);
  await page.mouse.move(2, 2);
  await page.waitForFunction(() => document.querySelector('svg.diagram .pointer-tip') === null);
  // A group's lane names its three markers' offsets, in the order a record passes them.
  const lane = await laneTop(page, 0);
  await page.mouse.move(lane.x, lane.y);
  await page.waitForFunction(() => document.querySelector('svg.diagram .pointer-tip text')?.textContent.startsWith('search, p0:'));
  const [, position, committed, processed] = (await pointerTip(page)).match(
    /^search, p0: position (\d+) \(next offset poll\(\) returns\) · committed offset (\d+) · processed up to offset (\d+)$/).map(Number);
  assert.ok(committed <= position && processed <= position && position <= end, `${committed} ${processed} ${position} ${end}`);
  await screenshot(page, 'lesson-partitions-lane-details');
  await page.mouse.move(newest.x, newest.y);
  await page.waitForFunction(() => document.querySelector('svg.diagram .pointer-tip') !== null);
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('svg.diagram .pointer-tip') === null);
  await page.mouse.move(lane.x, lane.y);
  await page.mouse.move(lane.x + 1, lane.y);
  await page.waitForTimeout(300);
  assert.equal(await pointerTip(page), null, 'no lane details while playing');
  assertQuiet(visit);
  await page.close();
});

test('a knob changes the picture and the link reproduces the exact run', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/partitions`);
  const { page } = visit;
  await waitForApp(page);
  await page.fill('#knob-partitions', '3');
  await page.dispatchEvent('#knob-partitions', 'change');
  await page.fill('#knob-g0-members', '5');
  await page.dispatchEvent('#knob-g0-members', 'change');
  // 5 members on 3 partitions: two stand idle.
  await page.waitForFunction(() => document.querySelectorAll('svg.diagram g.partition').length === 3
    && document.querySelectorAll('svg.diagram g.member').length === 5);
  assert.equal(await page.locator('svg.diagram g.member.idle').count(), 2, '5 members on 3 partitions');
  await pauseAt(page, 1500);
  const hash = await hooks(page, 'traceHash');
  const link = await writtenAddress(page);
  assert.match(link, /#\/partitions\?s=2\./, 'the address bar holds the scenario');

  const again = await openPage(env.browser, link);
  await waitForApp(again.page);
  await pauseAt(again.page, 1500);
  assert.equal(await again.page.locator('svg.diagram g.partition').count(), 3);
  assert.equal(await hooks(again.page, 'traceHash'), hash, 'same link, same run, bit for bit');
  assertQuiet(visit);
  assertQuiet(again);
  await page.close();
  await again.page.close();
});

test('a garbage link shows a clear message and the default scenario', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/partitions?s=2.not-a-real-link`);
  const { page } = visit;
  await waitForApp(page);
  const banner = page.locator('.error-banner');
  await banner.waitFor();
  assert.match(await banner.innerText(), /could not be read.*default scenario/s);
  assert.equal(await page.locator('svg.diagram g.partition').count(), 6);
  await screenshot(page, 'garbage-link');
  await page.click('.error-banner button');
  assert.equal(await banner.count(), 0, 'the message can be dismissed');
  assertQuiet(visit);
  await page.close();
});

test('space pauses and resumes, arrows step and change speed', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/partitions`);
  const { page } = visit;
  await waitForApp(page);
  await page.keyboard.press('Space');
  // Key presses are handled after they are dispatched: read the time once the page says paused.
  await page.locator('.transport button.primary', { hasText: 'Play' }).waitFor();
  const paused = await hooks(page, 'simMs');
  await page.waitForTimeout(400);
  assert.equal(await hooks(page, 'simMs'), paused, 'paused: time stands still');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((t) => window.__streamlab.simMs() >= t + 100, paused);
  await page.keyboard.press('ArrowUp');
  await page.locator('.speed output', { hasText: '2×' }).waitFor();
  await page.keyboard.press('Space');
  await page.waitForFunction((t) => window.__streamlab.simMs() > t + 200, paused + 100);
  assertQuiet(visit);
  await page.close();
});

test('the storm preset shades its rebalances and counts them', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/rebalances?preset=rebalance-storm`);
  const { page } = visit;
  await waitForApp(page);
  for (let i = 0; i < 6; i += 1) await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => window.__streamlab.simMs() > 60_000, undefined, { timeout: 60_000 });
  const rebalances = Number(
    await page.locator('.counter-label', { hasText: /^rebalances$/ }).locator('..').locator('.counter-value').innerText(),
  );
  assert.ok(rebalances >= 3, `rebalances counted: ${rebalances}`);
  const bands = Number(await page.locator('.timelines .rebalance-band').getAttribute('data-bands'));
  assert.ok(bands > 0, `rebalances are shaded: ${bands} bands`);
  assert.match(await page.locator('.timelines .rebalance-band').getAttribute('d'), /^M[\d.]+ 0h/);
  assert.match(await page.locator('.narration ol').textContent(), /max\.poll\.interval\.ms/);
  await screenshot(page, 'lesson-rebalances-storm');
  assertQuiet(visit);
  await page.close();
});

test('eager and cooperative run side by side, and a member action lands in the link', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/rebalances?preset=rolling-restart`);
  const { page } = visit;
  await waitForApp(page);
  await page.click('.compare-toggle button');
  assert.equal(await page.locator('svg.diagram').count(), 2, 'two diagrams');
  const captions = await page.locator('.side-by-side figcaption').allInnerTexts();
  assert.match(captions[0], /range/);
  assert.match(captions[1], /cooperative-sticky/);
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => window.__streamlab.simMs() > 40_000, undefined, { timeout: 60_000 });
  await screenshot(page, 'lesson-rebalances-side-by-side');
  // Paused, then one step past the crash, so the crash's line is among the narration's newest
  // (at 32× a rebalance's lines could push it out of the list before the test reads it).
  await page.keyboard.press('Space');
  await page.locator('.transport button.primary', { hasText: 'Play' }).waitFor();
  const before = await writtenAddress(page);
  await page.locator('.member-actions tr', { hasText: 'c6' }).locator('button', { hasText: 'crash' }).click();
  await page.waitForFunction((old) => location.href !== old, before);
  await page.locator('.transport button', { hasText: 'Step' }).click();
  await page.locator('.narration li', { hasText: /c6 crashes without a word/ }).first().waitFor({ timeout: 10_000 });
  assertQuiet(visit);
  await page.close();
});

test('a panic inside the app shows a copyable report instead of a frozen page', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/partitions`);
  const { page } = visit;
  await waitForApp(page);
  await page.evaluate(() => {
    try {
      window.__streamlab.debugPanic();
    } catch {
      // The panic surfaces as a wasm trap; the overlay is what the learner sees.
    }
  });
  const overlay = page.locator('#panic-overlay');
  await overlay.waitFor();
  assert.match(await overlay.innerText(), /Something went wrong inside Streamlab/);
  const report = await page.locator('#panic-report').inputValue();
  assert.match(report, /debugPanic\(\) was called from a test/);
  assert.match(report, /Link to reproduce: .*#\/partitions/);
  assert.equal(await page.locator('#panic-overlay button', { hasText: 'Copy report' }).count(), 1);
  await screenshot(page, 'panic-overlay');
  await page.close();
});
