// The event-time lesson "Watermarks and late events": it loads from its own address and draws
// records on event time × processing time with the watermark and the window columns; each of
// its presets, played to the end, shows what it is for (stragglers are late, one silent
// partition stalls the watermark until it is declared idle, the late policy decides between
// drops, retractions and side outputs); a knob change lands in the link; and the page stays
// quiet (no console errors, no request leaving the site).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, figures, playToEnd, useSiteAndBrowser, writtenAddress } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/**
 * Opens the page again from the link in the address bar (`setKnob` waits for a change to be
 * in it), so the next run is played from the start (a change made at the end of a run is
 * simulated in one jump, and the figures would be read before the page had drawn them).
 */
async function reopenFromLink(page) {
  await page.waitForFunction(() => location.hash.includes('?s=2.'));
  await page.reload();
  await waitForApp(page);
}

/**
 * A record's mark that nothing is drawn over: its device, its centre in the chart's
 * coordinates and on the screen. Each path holds many marks (`M…` runs); each mark's centre
 * is measured by drawing it alone, and the first one the browser finds its own path under is
 * taken.
 */
async function markOnTop(page) {
  return page.locator('.wm-chart > svg').evaluate((svg) => {
    const toScreen = svg.getScreenCTM();
    for (const path of [...svg.querySelectorAll('.wm-dots path')].reverse()) {
      for (const outline of path.getAttribute('d').split('M').slice(1)) {
        const probe = document.createElementNS('http://www.w3.org/2000/svg', 'path');
        probe.setAttribute('d', `M${outline}`);
        svg.appendChild(probe);
        const box = probe.getBBox();
        probe.remove();
        const chart = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        const screen = new DOMPoint(chart.x, chart.y).matrixTransform(toScreen);
        if (document.elementFromPoint(screen.x, screen.y) === path) {
          return { key: path.dataset.key, chart, screen: { x: screen.x, y: screen.y } };
        }
      }
    }
    throw new Error('no mark is uncovered');
  });
}

/**
 * Types `value` into the numeric knob `id` and commits it, as a learner would, and waits for
 * the address to carry it (the link is written a task after the new picture: reloading
 * before that would reopen the run before the change).
 */
async function setKnob(page, id, value) {
  const before = await page.evaluate(() => location.href);
  await page.fill(`#${id}`, String(value));
  await page.dispatchEvent(`#${id}`, 'change');
  await page.waitForFunction((old) => location.href !== old, before);
  await writtenAddress(page);
}

test('the lesson loads from its address and draws dots, the watermark and window columns', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/watermarks`);
  const { page } = visit;
  await waitForApp(page);
  await page.waitForFunction(() => window.__streamlab_eventtime?.simMs > 20_000);
  assert.match(await page.locator('.question').innerText(), /emitted its answer and a record for it just showed up/);
  assert.equal(await page.locator('.site-header nav a.current').innerText(), 'Watermarks and late events');
  // Each device's marks of one lateness are one path, which says how many it holds.
  const marks = await page.locator('.wm-chart .wm-dot:not(.too-late)').evaluateAll(
    (paths) => paths.map((p) => ({ count: Number(p.dataset.count), outlines: p.getAttribute('d').split('M').length - 1 })));
  assert.ok(marks.reduce((sum, m) => sum + m.count, 0) > 100, `records are dots: ${JSON.stringify(marks)}`);
  for (const m of marks) assert.equal(m.outlines, m.count, 'one outline per record');
  // A device is told by its mark's shape as well as its colour, and the key says which is which.
  const shapes = await page.locator('.device-legend .device-key').evaluateAll((keys) => keys.map((k) => k.dataset.shape));
  assert.ok(shapes.length >= 4, `devices in the key: ${shapes}`);
  assert.equal(new Set(shapes.slice(0, 4)).size, 4, `four neighbouring devices, four shapes: ${shapes}`);
  const drawn = await page.locator('.wm-chart .wm-dot:not(.too-late)').evaluateAll(
    (dots) => new Set(dots.map((d) => `${d.getAttribute('fill')} ${d.getAttribute('d').replace(/[-\d.\s]/g, '')}`)).size);
  assert.ok(drawn >= 4, `dots come in several device marks: ${drawn}`);
  const points = await page.locator('.wm-chart polyline.wm-line').getAttribute('points');
  assert.ok(points.split(' ').length > 10, 'the watermark line has a path');
  assert.ok((await page.locator('.wm-chart .wm-window rect').count()) >= 12, 'one column per window');
  assert.ok((await page.locator('.wm-chart .wm-pane.on-time').count()) >= 1, 'a fired window has a pane mark');
  assert.ok((await page.locator('.wm-panes li').count()) >= 1, 'the pane list fills');
  await screenshot(page, 'watermarks-start');
  assertQuiet(visit);
  await page.close();
});

test('mobile stragglers: late records are dropped, and allowed lateness turns them into late panes', { timeout: 150_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/watermarks?preset=mobile-stragglers`);
  const { page } = visit;
  await waitForApp(page);
  const strict = await playToEnd(page);
  // The preset allows no lateness: every straggler past the watermark is gone.
  assert.ok(strict.dropped > 50, `dropped: ${strict.dropped}`);
  assert.equal(strict.latePanes, 0);
  assert.ok((await page.locator('.wm-chart .wm-dot.too-late').count()) > 0, 'too-late records are marked');
  assert.ok((await page.locator('.wm-panes li.dropped').count()) > 0, 'drops are listed');
  assert.match(await page.locator('.wm-dropped').getAttribute('class'), /alert/);
  await screenshot(page, 'watermarks-stragglers-strict');

  await setKnob(page, 'knob-et-allowed-lateness', 60000);
  await reopenFromLink(page);
  const lenient = await playToEnd(page);
  assert.ok(lenient.latePanes > 20, `late panes: ${lenient.latePanes}`);
  assert.ok(lenient.dropped < strict.dropped / 4, `dropped ${strict.dropped} → ${lenient.dropped}`);
  assert.ok((await page.locator('.wm-panes li.late').count()) > 0, 'late panes are listed');
  assert.ok((await page.locator('.wm-chart .wm-pane.late').count()) > 0, 'late panes are drawn');
  assert.ok((await page.locator('.wm-chart .wm-dot.late').count()) > 0, 'late records have a dashed outline');
  await screenshot(page, 'watermarks-stragglers-lenient');
  assertQuiet(visit);
  await page.close();
});

test('one idle partition holds the watermark until it is declared idle', { timeout: 150_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/watermarks?preset=idle-partition-stalls`);
  const { page } = visit;
  await waitForApp(page);
  const withIdleness = await playToEnd(page);
  // The preset declares a partition idle after 10 s without records: the watermark stands
  // still about that long, then moves on.
  assert.notEqual(withIdleness.firstIdleAtMs, null, 'a partition was declared idle');
  assert.ok(
    withIdleness.longestWatermarkStallMs >= 8_000 && withIdleness.longestWatermarkStallMs <= 16_000,
    `stall with idleness: ${withIdleness.longestWatermarkStallMs} ms`,
  );
  assert.equal(await page.locator('.wm-stall').innerText(), `${Math.floor(withIdleness.longestWatermarkStallMs / 1000)} s`);
  assert.match(await page.locator('.narration ol').textContent(), /declared idle/);
  await screenshot(page, 'watermarks-idle-declared');

  await setKnob(page, 'knob-et-idleness', 0);
  await reopenFromLink(page);
  const withoutIdleness = await playToEnd(page);
  // Without idleness the silent device holds every window for its whole 40 s offline.
  assert.equal(withoutIdleness.firstIdleAtMs, null, 'nothing is declared idle');
  assert.ok(withoutIdleness.longestWatermarkStallMs > 30_000, `stall without idleness: ${withoutIdleness.longestWatermarkStallMs} ms`);
  await screenshot(page, 'watermarks-idle-stalled');
  assertQuiet(visit);
  await page.close();
});

test('drop vs restate vs side output: the policy decides retractions, drops and side outputs; the link keeps it', { timeout: 180_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/watermarks?preset=drop-vs-restate-vs-side`);
  const { page } = visit;
  await waitForApp(page);
  const restate = await playToEnd(page);
  assert.ok(restate.retractions > 0, `retractions: ${restate.retractions}`);
  assert.equal(restate.retractions, restate.latePanes, 'every late pane restates');
  assert.ok(restate.dropped > 0, `dropped: ${restate.dropped}`);
  assert.equal(restate.sideOutputs, 0);
  assert.match(await page.locator('.wm-chart').innerHTML(), /\d+ → \d+/, 'a retraction is drawn as old → new');
  assert.ok((await page.locator('.wm-panes li.restated').count()) > 0, 'retractions are listed');
  await screenshot(page, 'watermarks-restate');

  await page.selectOption('#knob-et-late-policy', 'side_output');
  await page.waitForFunction(() => window.__streamlab_eventtime.sideOutputs > 0);
  const side = await figures(page);
  assert.equal(side.sideOutputs, restate.dropped, 'the records that were dropped now go aside');
  assert.equal(side.retractions, 0);
  assert.equal(side.latePanes, restate.latePanes, 'late panes within the lateness still come');
  assert.ok((await page.locator('.wm-panes li.side').count()) > 0, 'side outputs are listed');
  assert.equal(await page.locator('.wm-side').innerText(), String(side.sideOutputs));
  await screenshot(page, 'watermarks-side-output');

  await page.selectOption('#knob-et-late-policy', 'drop');
  await page.waitForFunction(() => window.__streamlab_eventtime.sideOutputs === 0);
  const dropped = await figures(page);
  assert.equal(dropped.retractions, 0);
  assert.equal(dropped.dropped, restate.dropped);
  assert.equal(await page.locator('.wm-dropped').innerText(), String(dropped.dropped));
  const link = await page.evaluate(() => location.href);
  assert.match(link, /#\/watermarks\?s=2\./);
  // The address is written while handling the change, the share box when the page renders.
  await page.waitForFunction((l) => document.querySelector('.share-url').value === l, link);
  assertQuiet(visit);
  await page.close();

  const again = await openPage(env.browser, link);
  await waitForApp(again.page);
  assert.equal(await again.page.inputValue('#knob-et-late-policy'), 'drop');
  const reproduced = await playToEnd(again.page);
  assert.deepEqual(reproduced, dropped, 'the link gives the same run');
  assertQuiet(again);
  await again.page.close();
});

test('a record shows its three timestamps, and the corrected timestamp rescues a skewed device', { timeout: 150_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/watermarks?preset=mobile-stragglers`);
  const { page } = visit;
  await waitForApp(page);
  const skewed = await playToEnd(page);
  assert.match(await page.locator('.record-timestamps').innerText(), /Click a dot/);
  // Device 7's clock runs 20 s behind (the preset's one skewed device).
  // Dispatched on the element itself: a click at its position could land on a dot drawn over it.
  await page.locator('.wm-dots [data-key="7"]').first().dispatchEvent('click');
  await page.locator('.record-timestamps', { hasText: 'from device 7' }).waitFor();
  const panel = await page.locator('.record-timestamps').innerText();
  for (const name of ['occurred', 'sent', 'received', 'corrected']) assert.match(panel, new RegExp(name));
  assert.match(panel, /off by −20\.0 s/);
  assert.equal(await page.locator('.wm-selected .wm-corrected').count(), 1, 'the corrected position is marked');
  await screenshot(page, 'watermarks-three-timestamps');
  // A real click on a mark picks that very record: the ring is drawn where the mark is.
  const target = await markOnTop(page);
  await page.mouse.click(target.screen.x, target.screen.y);
  await page.locator('.record-timestamps', { hasText: `from device ${target.key}` }).waitFor();
  const ring = await page.locator('.wm-selected circle').evaluate((c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]);
  assert.ok(Math.hypot(ring[0] - target.chart.x, ring[1] - target.chart.y) < 3, `ring at ${ring}, mark at ${JSON.stringify(target.chart)}`);
  await page.selectOption('#knob-et-event-timestamp', 'corrected');
  await reopenFromLink(page);
  const corrected = await playToEnd(page);
  assert.ok(corrected.dropped < skewed.dropped, `dropped ${skewed.dropped} → ${corrected.dropped}`);
  assertQuiet(visit);
  await page.close();
});
