// The replication family, on the shared lesson shell: each preset opened by its link and played
// to its end shows the figure that proves its point, in the state the lesson reports (the names
// `streamlab simulate` prints) and on the page, in the row of the acks setting it names.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, canvasHasInk, presetFiguresAtEnd, useSiteAndBrowser, writtenAddress } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** Opens the lesson at `preset`, plays it to its end and returns its figures. */
const figuresAtEnd = (page, preset) =>
  presetFiguresAtEnd(env, page, 'replication', preset, { timeout: 120_000 });

/** The number the page shows for `figure` in the row of `acks` (acks_0, acks_1, acks_all). */
const shown = async (page, acks, figure) =>
  Number(await page.locator(`tr[data-acks="${acks}"] [data-figure="${figure}"]`).innerText());

test('acks=1 loses acknowledged writes in a leader crash; acks=all with min ISR 2 loses none and pays in latency', { timeout: 240_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const one = await figuresAtEnd(page, 'acks-1-leader-crash');
  assert.ok(one.acknowledged_then_lost > 0, JSON.stringify(one));
  assert.equal(await shown(page, 'acks_1', 'acknowledged_then_lost'), one.acknowledged_then_lost);
  const all = await figuresAtEnd(page, 'acks-all-min-isr-2');
  assert.equal(all.acknowledged_then_lost, 0, JSON.stringify(all));
  assert.ok(all.produce_latency_p99_ms > all.by_acks.acks_1.produce_latency_p99_ms);
  assert.equal(await shown(page, 'acks_all', 'acknowledged_then_lost'), 0);
  assert.equal(await shown(page, 'acks_all', 'produce_latency_p99_ms'), all.produce_latency_p99_ms);
  assert.equal(await shown(page, 'acks_1', 'produce_latency_p99_ms'), all.by_acks.acks_1.produce_latency_p99_ms);
  assert.ok(await canvasHasInk(page, '.rp-chart canvas'));
  await screenshot(page, 'replication-acks-all');
  assertQuiet(visit);
  await page.close();
});

test('an unclean election loses acks=all writes; a shrunken ISR refuses them and loses none', { timeout: 240_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const unclean = await figuresAtEnd(page, 'unclean-election-loses-writes');
  assert.ok(unclean.acknowledged_then_lost > 0, JSON.stringify(unclean));
  assert.equal(await shown(page, 'acks_all', 'acknowledged_then_lost'), unclean.acknowledged_then_lost);
  const refused = await figuresAtEnd(page, 'isr-shrinks-not-enough-replicas');
  assert.ok(refused.rejected_writes > 0, JSON.stringify(refused));
  assert.equal(refused.acknowledged_then_lost, 0);
  assert.equal(await shown(page, 'acks_all', 'rejected_writes'), refused.rejected_writes);
  assertQuiet(visit);
  await page.close();
});

test('retries without idempotence write duplicates; the idempotent producer writes none', { timeout: 240_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const plain = await figuresAtEnd(page, 'retries-without-idempotence-duplicate');
  assert.ok(plain.duplicates > 0, JSON.stringify(plain));
  assert.equal(await shown(page, 'acks_all', 'duplicates'), plain.duplicates);
  const idempotent = await figuresAtEnd(page, 'idempotent-producer');
  assert.equal(idempotent.duplicates, 0, JSON.stringify(idempotent));
  assert.equal(await shown(page, 'acks_all', 'duplicates'), 0);
  assertQuiet(visit);
  await page.close();
});

test('a broker button schedules its fault now: crashing the leader elects another', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/replication`);
  const { page } = visit;
  await waitForApp(page);
  await page.waitForFunction(() => window.streamlab?.get()?.lesson !== undefined);
  const before = await page.locator('[data-partition="1"] h3').innerText();
  assert.match(before, /leader broker 2/);
  await page.locator('[data-broker="2"] button', { hasText: 'crash' }).click();
  // Play until the controller fences broker 2 (broker.session.timeout.ms) and elects another.
  await page.locator('.question').click();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowUp');
  if ((await page.locator('.transport button.primary').innerText()).includes('Play')) {
    await page.keyboard.press('Space');
  }
  await page.locator('[data-broker="2"] .rp-state', { hasText: 'crashed' }).waitFor();
  await page.locator('[data-partition="1"] h3', { hasText: /leader broker [13]/ }).waitFor({ timeout: 60_000 });
  assert.match(await writtenAddress(page), /s=/);
  assertQuiet(visit);
  await page.close();
});
