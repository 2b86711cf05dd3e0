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
  await page.fill('#knob-et-hop', '1000');
  await page.dispatchEvent('#knob-et-hop', 'change');
  await page.waitForFunction(() => location.hash.includes('?s=2.'));
  await page.waitForFunction(() => window.__streamlab_eventtime.mostWindowsPerRecord?.[1] === 10);
  const after = await page.locator('.wt-band[data-kind="hopping"] .wt-window').count();
  assert.ok(after > 3 * before, `hopping windows ${before} → ${after}`);
  // The session gap knob reshapes the session band only.
  const sessions = (await page.evaluate(() => window.__streamlab_eventtime.windowsPerType))[3];
  await page.fill('#knob-et-session-gap', '500');
  await page.dispatchEvent('#knob-et-session-gap', 'change');
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

/**
 * Per band: how many windows, how many print their count, the counts that reach outside their
 * own box or into another window's box, and the windows whose title lacks their count.
 */
const countLabels = (page) =>
  page.evaluate(() => {
    const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    const inside = (a, b) => a.x >= b.x && a.x + a.width <= b.x + b.width && a.y >= b.y && a.y + a.height <= b.y + b.height;
    const out = {};
    for (const band of document.querySelectorAll('.wt-band')) {
      const windows = [...band.querySelectorAll('.wt-window')].map((w) => ({
        box: w.querySelector('rect').getBBox(),
        label: w.querySelector('text.wt-count'),
        title: w.querySelector('title')?.textContent ?? '',
      }));
      const found = { windows: windows.length, labelled: 0, strays: [], untitled: 0 };
      for (const [i, w] of windows.entries()) {
        if (!/· \d+ record\(s\)/.test(w.title)) found.untitled += 1;
        if (!w.label) continue;
        found.labelled += 1;
        const text = w.label.getBBox();
        const intoOthers = windows.some((other, j) => j !== i && overlaps(text, other.box));
        if (!inside(text, w.box) || intoOthers) found.strays.push(`${w.label.textContent} in ${w.title}`);
      }
      out[band.dataset.kind] = found;
    }
    return out;
  });

test('crowded windows keep their counts inside their own boxes, and every count stays in the title', { timeout: 120_000 }, async () => {
  // A 1 s time difference and late records: narrow sliding windows, many of them fired twice,
  // back to back on rows of their own.
  const visit = await openPage(env.browser, `${env.site.url}#/windows?preset=late-record-many-panes`);
  const { page } = visit;
  await waitForApp(page);
  await page.fill('#knob-et-time-difference', '1000');
  await page.dispatchEvent('#knob-et-time-difference', 'change');
  await page.waitForFunction(() => location.hash.includes('?s=2.'));
  await playToEnd(page);
  await screenshot(page, 'windows-crowded');
  const bands = await countLabels(page);
  for (const [kind, found] of Object.entries(bands)) {
    assert.deepEqual(found.strays, [], `${kind}: counts drawn outside their box`);
    assert.equal(found.untitled, 0, `${kind}: every window's title gives its count`);
  }
  // The crowded band still prints most counts; the rest are only in the titles.
  const sliding = bands.sliding;
  assert.ok(sliding.windows >= 40, `sliding windows: ${sliding.windows}`);
  assert.ok(sliding.labelled > sliding.windows / 2, `sliding counts printed: ${sliding.labelled} of ${sliding.windows}`);
  assertQuiet(visit);
  await page.close();
});
