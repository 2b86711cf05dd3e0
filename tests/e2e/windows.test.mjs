// The event-time lesson "Windows": it loads from its own address and from each preset's link,
// draws one band per window type over the same records (each record drawn again inside every
// window that holds it), its knobs change the picture and land in the link, and the page stays
// quiet (no console errors, no request leaving the site).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, playToEnd, useSiteAndBrowser } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** Records drawn inside the windows of the band for `kind` ("tumbling", "hopping", ...). */
const recordsInWindows = (page, kind) => page.locator(`.wt-band[data-kind="${kind}"] .wt-in`).count();
const recordsOnStrip = (page, kind) => page.locator(`.wt-band[data-kind="${kind}"] circle.wt-record`).count();

test('the lesson loads from its address with four bands of windows over one stream', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/windows`);
  const { page } = visit;
  await waitForApp(page);
  assert.match(await page.locator('.question').innerText(), /Which window does this record belong to/);
  assert.equal(await page.locator('.site-header nav a.current').innerText(), 'Windows');
  const kinds = await page.locator('.wt-band').evaluateAll((bands) => bands.map((b) => b.dataset.kind));
  assert.deepEqual(kinds, ['tumbling', 'hopping', 'sliding', 'session']);
  // Flink's name for hopping windows is shown, with the clash spelled out.
  assert.match(await page.locator('.wt-band[data-kind="hopping"] .wt-calls').textContent(), /SlidingEventTimeWindows\.of\(10 s, 5 s\)/);
  const end = await playToEnd(page);
  await screenshot(page, 'windows-end');
  // One tumbling window and one session per record, two hopping windows, several sliding.
  assert.deepEqual(end.mostWindowsPerRecord.slice(0, 2), [1, 2]);
  assert.equal(end.mostWindowsPerRecord[3], 1);
  assert.ok(end.mostWindowsPerRecord[2] >= 5, `sliding: ${end.mostWindowsPerRecord}`);
  const strip = await recordsOnStrip(page, 'tumbling');
  assert.ok(strip >= 20, `records: ${strip}`);
  assert.equal(await recordsInWindows(page, 'tumbling'), strip);
  assert.equal(await recordsInWindows(page, 'hopping'), 2 * strip);
  assert.ok((await recordsInWindows(page, 'sliding')) > 3 * strip, 'a record sits in many sliding windows');
  assert.equal(await page.locator('.wt-window.open').count(), 0, 'every window fired at the end of input');
  assertQuiet(visit);
  await page.close();
});

test('the late-record preset re-fires more hopping and sliding windows than tumbling ones', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/windows?preset=late-record-many-panes`);
  const { page } = visit;
  await waitForApp(page);
  assert.equal(await page.locator('.error-banner').count(), 0);
  const end = await playToEnd(page);
  const [tumbling, hopping, sliding] = end.latePanesPerType;
  assert.ok(tumbling > 0, `late panes ${end.latePanesPerType}`);
  assert.ok(hopping > tumbling && sliding > hopping, `late panes ${end.latePanesPerType}`);
  assert.ok((await page.locator('.wt-window.refired').count()) > 0, 'a window that fired again is marked');
  assert.ok((await page.locator('.narration li').filter({ hasText: 'fired again' }).count()) > 0);
  await screenshot(page, 'windows-late-record');
  assertQuiet(visit);
  await page.close();
});

test('the knobs change the picture and the link: a 1 s hop puts each record into ten windows', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/windows?preset=four-windows`);
  const { page } = visit;
  await waitForApp(page);
  await playToEnd(page);
  const before = await page.locator('.wt-band[data-kind="hopping"] .wt-window').count();
  await page.fill('#knob-wt-hop', '1000');
  await page.dispatchEvent('#knob-wt-hop', 'change');
  await page.waitForFunction(() => location.hash.includes('?s=2.'));
  await page.waitForFunction(() => window.__streamlab_eventtime.mostWindowsPerRecord?.[1] === 10);
  const after = await page.locator('.wt-band[data-kind="hopping"] .wt-window').count();
  assert.ok(after > 3 * before, `hopping windows ${before} → ${after}`);
  // The session gap knob reshapes the session band only.
  const sessions = (await page.evaluate(() => window.__streamlab_eventtime.windowsPerType))[3];
  await page.fill('#knob-wt-session-gap', '500');
  await page.dispatchEvent('#knob-wt-session-gap', 'change');
  await page.waitForFunction((n) => window.__streamlab_eventtime.windowsPerType[3] > n, sessions);
  await screenshot(page, 'windows-knobs');
  // The link reproduces the changed run.
  const link = await page.evaluate(() => location.href);
  const again = await openPage(env.browser, link);
  await waitForApp(again.page);
  const replay = await playToEnd(again.page);
  assert.equal(replay.mostWindowsPerRecord[1], 10);
  assert.ok(replay.windowsPerType[3] > sessions);
  assertQuiet(visit);
  assertQuiet(again);
  await again.page.close();
  await page.close();
});
