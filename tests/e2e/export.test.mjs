// Export: the chart downloads as a PNG, the metrics as CSV, the scenario as JSON (the same
// scenario the page runs), and the real-config panel shows the properties the knobs stand for.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openPage, waitForApp } from './harness.mjs';
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
  assert.equal(await page.locator('.tools button', { hasText: 'Chart (PNG)' }).count(), 0, 'its chart is SVG: no PNG button');
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
