// The exactly-once family, built on the shared lesson shell: each preset opened by its link
// and played to its end shows the figure that proves its point, on the page and in the state
// the lesson reports (the names `streamlab simulate` prints).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot } from './harness.mjs';
import { assertQuiet, presetFiguresAtEnd, useSiteAndBrowser } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** Opens `lesson` at `preset`, plays it to its end and returns its figures. */
const figuresAtEnd = (page, lesson, preset) => presetFiguresAtEnd(env, page, lesson, preset);

/** The number the page shows for `model`'s `figure`. */
const shown = async (page, model, figure) =>
  Number(await page.locator(`.eo-lane.${model} [data-figure="${figure}"]`).innerText());

test('checkpoints: both microbatches and barriers restore an exact state and replay different amounts; a slow input stretches alignment', { timeout: 200_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const f = await figuresAtEnd(page, 'checkpoints', 'microbatch-vs-checkpoint');
  assert.equal(f.microbatch.state_errors, 0, JSON.stringify(f));
  assert.equal(f.checkpoint.state_errors, 0);
  assert.ok(f.microbatch.reprocessed_records > 0 && f.checkpoint.reprocessed_records > 0);
  assert.ok(f.no_checkpoint.state_errors > 0);
  assert.equal(await shown(page, 'checkpoint', 'reprocessed_records'), f.checkpoint.reprocessed_records);
  assert.equal(await shown(page, 'microbatch', 'reprocessed_records'), f.microbatch.reprocessed_records);
  await screenshot(page, 'eos-checkpoints');
  const random = await figuresAtEnd(page, 'checkpoints', 'checkpoint-restore-exactly-once-state');
  assert.ok(random.crashes > 1, JSON.stringify(random));
  assert.equal(random.checkpoint.state_errors, 0);
  const stall = await figuresAtEnd(page, 'checkpoints', 'alignment-stall');
  assert.equal(stall.checkpoint.alignment_ms, 1500, JSON.stringify(stall.checkpoint));
  assert.equal(await shown(page, 'checkpoint', 'alignment_ms'), 1500);
  assertQuiet(visit);
  await page.close();
});

test('effects: the email goes twice while the state is exact; an idempotency key stops it; fencing refuses the zombie', { timeout: 200_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const email = await figuresAtEnd(page, 'effects', 'email-sent-twice');
  assert.ok(email.microbatch.external_duplicates > 0, JSON.stringify(email));
  assert.equal(email.microbatch.state_errors, 0);
  assert.equal(email.checkpoint.state_errors, 0);
  assert.equal(await shown(page, 'microbatch', 'external_duplicates'), email.microbatch.external_duplicates);
  await screenshot(page, 'eos-effects');
  const idempotent = await figuresAtEnd(page, 'effects', 'idempotent-effect');
  assert.equal(idempotent.checkpoint.external_duplicates, 0);
  assert.equal(await shown(page, 'checkpoint', 'external_duplicates'), 0);
  const zombie = await figuresAtEnd(page, 'effects', 'zombie-without-fencing');
  assert.ok(zombie.zombie.stale_writes > 0, JSON.stringify(zombie));
  assert.equal(Number(await page.locator('.eo-store [data-figure="stale_writes"]').innerText()), zombie.zombie.stale_writes);
  await screenshot(page, 'eos-zombie');
  const fenced = await figuresAtEnd(page, 'effects', 'zombie-fenced');
  assert.equal(fenced.zombie.stale_writes, 0);
  assert.ok(fenced.zombie.refused_writes > 0);
  assertQuiet(visit);
  await page.close();
});
