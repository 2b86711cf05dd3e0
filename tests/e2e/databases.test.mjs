// The databases family: each preset opened by its link and played to its end shows the figure
// that proves its point (issue 12's names), on the page and in the state the lesson reports
// (the names `streamlab simulate` prints).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot } from './harness.mjs';
import { assertQuiet, presetFiguresAtEnd, useSiteAndBrowser } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** Opens `lesson` at `preset`, plays it to its end and returns its figures. */
const figuresAtEnd = (page, lesson, preset) => presetFiguresAtEnd(env, page, lesson, preset);

/** The number the page shows for the figure named `figure` (dotted for a lane's). */
const shown = async (page, figure) =>
  Number(await page.locator(`[data-figure="${figure}"]`).first().innerText());

test('dual writes diverge with no exception; a try/catch cuts the losses, not the race; CDC and the outbox converge', { timeout: 300_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const race = await figuresAtEnd(page, 'dual-writes', 'dual-write-race');
  assert.ok(race.dual_write.divergent_keys > 0, JSON.stringify(race));
  assert.equal(race.dual_write.exceptions, 0);
  assert.equal(await shown(page, 'dual_write.divergent_keys'), race.dual_write.divergent_keys);
  assert.equal(await shown(page, 'dual_write.exceptions'), 0);
  assert.ok(await page.locator('.db-products td.db-differs').count() > 0);
  await screenshot(page, 'databases-race');

  const retry = await figuresAtEnd(page, 'dual-writes', 'dual-write-try-catch');
  assert.ok(retry.try_catch.divergent_keys > 0, JSON.stringify(retry));
  assert.ok(retry.try_catch.lost_writes < retry.dual_write.lost_writes);
  assert.equal(await shown(page, 'try_catch.divergent_keys'), retry.try_catch.divergent_keys);

  for (const [preset, lane] of [['cdc-converges', 'cdc'], ['outbox-converges', 'outbox']]) {
    const f = await figuresAtEnd(page, 'dual-writes', preset);
    assert.equal(f[lane].divergent_keys, 0, `${preset}: ${JSON.stringify(f[lane])}`);
    assert.ok(f[lane].max_connector_lag_ms > 0, preset);
    assert.equal(await shown(page, `${lane}.divergent_keys`), 0);
    assert.equal(await shown(page, `${lane}.max_connector_lag_ms`), f[lane].max_connector_lag_ms);
  }
  await screenshot(page, 'databases-outbox');
  assertQuiet(visit);
  await page.close();
});

test('a compacted topic bootstraps from about one record per live key; a tombstone removes its key; the event log cannot be compacted', { timeout: 300_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const boot = await figuresAtEnd(page, 'bootstrapping', 'compaction-bootstrap');
  assert.ok(boot.bootstrap_records_read <= 2 * boot.live_keys, JSON.stringify(boot));
  assert.ok(boot.total_writes > 20 * boot.live_keys);
  assert.equal(await shown(page, 'bootstrap_records_read'), boot.bootstrap_records_read);
  assert.equal(await shown(page, 'total_writes'), boot.total_writes);
  await screenshot(page, 'databases-compaction');

  const tomb = await figuresAtEnd(page, 'bootstrapping', 'tombstone-deletes-key');
  assert.equal(tomb.tombstone.present_before_retention, true, JSON.stringify(tomb.tombstone));
  assert.equal(tomb.tombstone.present_now, false);
  assert.match(await page.locator('.db-tombstone').innerText(), /removed by the cleaner/);

  const es = await figuresAtEnd(page, 'bootstrapping', 'event-sourcing-is-not-cdc');
  assert.ok(es.event_sourced.wrong_if_compacted > 0, JSON.stringify(es));
  assert.equal(await shown(page, 'event_sourced.wrong_if_compacted'), es.event_sourced.wrong_if_compacted);
  assertQuiet(visit);
  await page.close();
});

test('a snapshot without its log position misses writes; tied to it, nothing is missed or applied twice', { timeout: 300_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const without = await figuresAtEnd(page, 'bootstrapping', 'snapshot-without-offset');
  assert.ok(without.missed_or_duplicated > 0, JSON.stringify(without));
  assert.equal(await shown(page, 'missed_or_duplicated'), without.missed_or_duplicated);
  assert.ok(await page.locator('.db-row.differs').count() > 0);
  await screenshot(page, 'databases-snapshot-without');
  const tied = await figuresAtEnd(page, 'bootstrapping', 'snapshot-with-offset');
  assert.equal(tied.missed_or_duplicated, 0, JSON.stringify(tied));
  assert.equal(await shown(page, 'missed_or_duplicated'), 0);
  assertQuiet(visit);
  await page.close();
});
