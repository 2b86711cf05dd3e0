// Export: the chart downloads as a PNG, the metrics as CSV, the scenario as JSON (the same
// scenario the page runs), and the real-config panel shows the properties the knobs stand for.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { artifactsDir, openPage, waitForApp, waitForSettledClock } from './harness.mjs';
import { assertQuiet, useSiteAndBrowser } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** Clicks the tools button called `name` and returns the downloaded file's name and bytes. */
async function download(page, name) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('.tools button', { hasText: name }).click(),
  ]);
  return { name: file.suggestedFilename(), bytes: await readFile(await file.path()) };
}

test('a consumer-group lesson exports its chart, metrics and scenario', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/rebalances?preset=storm-fix-smaller-batches`);
  const { page } = visit;
  await waitForApp(page);
  await page.waitForFunction(() => window.__streamlab.simMs() > 3000);

  const png = await download(page, 'Chart (PNG)');
  assert.equal(png.name, 'streamlab-rebalances-chart.png');
  assert.deepEqual([...png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG file');

  const csv = (await download(page, 'Metrics (CSV)')).bytes.toString();
  const [header, ...rows] = csv.trim().split('\n');
  assert.match(header, /^at_ms,group_id,produced_total,processed_total,duplicates_total,rebalances_total,lag_total,lag_p0/);
  assert.ok(rows.length > 2, 'a row per sample so far');
  assert.ok(rows.every((r) => r.split(',').length === header.split(',').length), 'every row has every column');

  const scenario = JSON.parse((await download(page, 'Scenario (JSON)')).bytes.toString());
  assert.equal(scenario.groups[0].max_poll_records, 50, 'the preset that is running (max.poll.records 50)');

  await page.locator('details.real-config summary').click();
  const config = await page.locator('details.real-config pre').innerText();
  assert.match(config, /^max\.poll\.records=50$/m);
  assert.match(config, /^session\.timeout\.ms=\d+$/m);
  assertQuiet(visit);
  await page.close();
});

test('an event-time lesson exports its windows and scenario and shows Flink settings', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/watermarks`);
  const { page } = visit;
  await waitForApp(page);
  await page.waitForFunction(() => (window.__streamlab_eventtime?.simMs ?? 0) > 15_000);
  const csv = (await download(page, 'Metrics (CSV)')).bytes.toString();
  const [header, ...rows] = csv.trim().split('\n');
  assert.equal(header.split(',')[0], 'window_start_ms');
  assert.ok(rows.length > 0, 'a row per window so far');
  const scenario = JSON.parse((await download(page, 'Scenario (JSON)')).bytes.toString());
  assert.ok('max_out_of_orderness_ms' in scenario, 'the event-time scenario');
  await page.locator('details.real-config summary').click();
  const settings = await page.locator('details.real-config pre').innerText();
  assert.ok(settings.includes(`forBoundedOutOfOrderness(Duration.ofMillis(${scenario.max_out_of_orderness_ms}))`), settings);
  assertQuiet(visit);
  await page.close();
});

/** Checks `png` is a PNG of `atLeastWidth` × `atLeastHeight` px or more with real content, and keeps it for review. */
async function assertPicture(png, fileName, atLeastWidth, atLeastHeight) {
  assert.equal(png.name, fileName);
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${fileName} is a PNG`);
  // The IHDR chunk, first in every PNG, holds the width and height.
  const [width, height] = [png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)];
  assert.ok(width >= atLeastWidth && height >= atLeastHeight, `${fileName} is ${width}×${height}`);
  // A blank picture of that size compresses to a few hundred bytes; a drawn one does not (the
  // delivery log's flat cells, drawn as paths, compress to some 9 KB early in its run).
  assert.ok(png.bytes.length > 5_000, `${fileName} has content: ${png.bytes.length} bytes`);
  await mkdir(artifactsDir, { recursive: true });
  await writeFile(join(artifactsDir, `export-${fileName}`), png.bytes);
}

test('the SVG pictures (watermarks, windows, delivery log) save as PNG in the page\'s theme', { timeout: 120_000 }, async () => {
  for (const [slug, button, fileName, width, height] of [
    ['watermarks', 'Chart (PNG)', 'streamlab-watermarks-chart.png', 1000, 600],
    ['windows', 'Chart (PNG)', 'streamlab-windows-chart.png', 1600, 600],
    ['delivery', 'Log (PNG)', 'streamlab-delivery-log.png', 600, 150],
  ]) {
    const visit = await openPage(env.browser, `${env.site.url}#/${slug}`, {
      setUp: (page) => page.addInitScript(() => localStorage.setItem('streamlab-theme', 'dark')),
    });
    const { page } = visit;
    await waitForApp(page);
    await page.locator('.tools button', { hasText: button }).waitFor();
    await page.keyboard.press('Space');
    await page.waitForTimeout(1500);
    await assertPicture(await download(page, button), fileName, width, height);
    assertQuiet(visit);
    await page.close();
  }
});

const lagChart = '.charts figure:nth-child(1) canvas';

test('a chart out of sight while a knob turns shows the new run once exported or scrolled to', { timeout: 120_000 }, async () => {
  // The charts sit below the fold of the delivery lesson, so a new setting's drawing waits.
  const visit = await openPage(env.browser, `${env.site.url}#/delivery?t=60000`);
  const { page } = visit;
  await waitForApp(page);
  await waitForSettledClock(page);
  const before = await download(page, 'Chart (PNG)');
  const pixels = (p) => p.evaluate((s) => document.querySelector(s).toDataURL(), lagChart);
  // Each link opened afresh draws its run's chart as it first shows it.
  const drawnAfresh = async () => {
    const fresh = await openPage(env.browser, await page.evaluate(() => location.href));
    await waitForApp(fresh.page);
    await waitForSettledClock(fresh.page);
    const drawn = await pixels(fresh.page);
    assertQuiet(fresh);
    await fresh.page.close();
    return drawn;
  };

  await turnPartitions(page, +1);
  const exported = await download(page, 'Chart (PNG)');
  assert.notDeepEqual(exported.bytes, before.bytes, 'the export shows the new setting');
  assert.equal(await pixels(page), await drawnAfresh(), 'the export drew the new run in full');

  await turnPartitions(page, +1);
  await page.locator(lagChart).scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  assert.equal(await pixels(page), await drawnAfresh(), 'scrolled to, the chart shows the new run');
  assertQuiet(visit);
  await page.close();
});

/** Turns the partition count by `by` and waits for the new run to be built and linked. */
async function turnPartitions(page, by) {
  const knob = '#knob-partitions';
  await page.fill(knob, String(Number(await page.inputValue(knob)) + by));
  await page.dispatchEvent(knob, 'change');
  await page.waitForFunction(() => window.__streamlab.addressStaged() === false);
  await waitForSettledClock(page);
}
