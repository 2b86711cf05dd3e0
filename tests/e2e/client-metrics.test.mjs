// The consumer metrics under Kafka's names: paused in the middle of the storm, the coordinator
// metrics show failed and frequent rebalances; the same moment with the fix shows none, and
// the windowed rebalance latency has nothing to average (NaN, as Kafka reports it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, useSiteAndBrowser } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** The "now" cell of `metric` in the first group's table, as the page shows it. */
const now = (page, metric) =>
  page.locator(`.client-metrics-table tr[data-metric="${metric}"] td`).nth(1).innerText();

test('the storm shows in the consumer metrics and its fix does not', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/rebalances?preset=rebalance-storm&t=60000`);
  const { page } = visit;
  await waitForApp(page);
  await page.locator('.client-metrics-table').first().waitFor();
  assert.ok(parseFloat(await now(page, 'failed-rebalance-total')) > 0);
  assert.ok(parseFloat(await now(page, 'rebalance-rate-per-hour')) > 0);
  assert.match(await now(page, 'rebalance-latency-avg'), /\d+ ms/);
  await screenshot(page, 'client-metrics-storm');

  await page.goto(`${env.site.url}#/rebalances?preset=storm-fix-smaller-batches&t=60000`);
  await waitForApp(page);
  await page.waitForFunction(() => window.streamlab?.get()?.t_ms === 60000);
  await page.locator('.client-metrics-table').first().waitFor();
  assert.equal(await now(page, 'failed-rebalance-total'), '0');
  assert.match(await now(page, 'rebalance-rate-per-hour'), /^0 \/h/);
  assert.match(await now(page, 'rebalance-latency-avg'), /^NaN/);
  // Every group lesson shows the panel.
  for (const lesson of ['partitions', 'delivery']) {
    await page.goto(`${env.site.url}#/${lesson}`);
    await waitForApp(page);
    await page.locator('.client-metrics-table').first().waitFor();
  }
  assertQuiet(visit);
  await page.close();
});
