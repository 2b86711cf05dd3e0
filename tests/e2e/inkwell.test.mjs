// The Inkwell challenge's practice page: the broken start, played to its end, fails every
// goal; a solved attempt's link passes every goal; and the page, the state the lesson reports
// and `streamlab grade` give the same numbers, because all three read one verdict from the
// same core.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openPage, repoRoot, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, useSiteAndBrowser } from './lesson-helpers.mjs';

const run = promisify(execFile);
const cliPath = join(repoRoot, 'target', 'release', 'streamlab');
const solved = join(repoRoot, 'crates', 'cli', 'tests', 'fixtures', 'inkwell', 'solved.json');

const env = useSiteAndBrowser();

before(async () => {
  await access(cliPath).catch(() =>
    run('cargo', ['build', '--release', '--locked', '-p', 'streamlab-cli'], { cwd: repoRoot }));
});

/** `streamlab grade` with `args`, parsed. */
const grade = async (...args) => JSON.parse((await run(cliPath, ['grade', ...args])).stdout);

/** Opens `fragment`, plays it to its end at top speed and returns the lesson's state. */
async function stateAtEnd(page, fragment) {
  await page.goto(`${env.site.url}${fragment}`);
  await waitForApp(page);
  await page.waitForFunction(() => window.streamlab?.get()?.lesson === 'inkwell');
  await page.locator('.question').click();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowUp');
  if ((await page.locator('.transport button.primary').innerText()).includes('Play')) {
    await page.keyboard.press('Space');
  }
  // The attempt stops at its end and the clock with it.
  await page.locator('.transport button.primary', { hasText: 'Play' }).waitFor({ timeout: 120_000 });
  return page.evaluate(() => window.streamlab.get());
}

/** What the page shows for each goal: its status and measured value, by service. */
const shownGoals = (page) =>
  page.$$eval('.p-goal', (cards) => cards.map((card) => ({
    service: card.dataset.service,
    status: card.dataset.status,
    measured: card.querySelector('dd[data-figure]').dataset.value,
    lost: card.querySelector('dd[data-figure="lost"]')?.dataset.value,
  })));

/** The CLI's goals in the page's terms. */
const cliGoals = (verdict) => verdict.goals.map((g) => ({
  service: g.service ?? 'budget',
  status: g.status,
  measured: g.measured === null ? '' : String(g.measured),
  lost: g.lost === null ? undefined : String(g.lost),
}));

test('the broken start fails every goal, with the numbers `streamlab grade --preset inkwell` prints', { timeout: 240_000 }, async () => {
  const cli = await grade('--preset', 'inkwell');
  assert.equal(cli.passed, false);
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const state = await stateAtEnd(page, '#/inkwell');
  assert.equal(state.figures.passed, false);
  for (const service of ['search', 'analytics', 'recommender']) {
    assert.equal(state.figures[service].passed, false, service);
  }
  const goals = await shownGoals(page);
  assert.deepEqual(goals.map((g) => g.status), ['failed', 'failed', 'failed', 'failed']);
  assert.deepEqual(goals, cliGoals(cli));
  assert.equal(Number(goals[0].measured), state.figures.search.lag_ms_max);
  assert.equal(Number(await page.locator('.p-cost-total').getAttribute('data-value')), cli.cost.credits);
  // Hints wait behind their button.
  assert.equal(await page.locator('.p-hints li').count(), 0);
  await page.locator('.p-hint-button').click();
  assert.equal(await page.locator('.p-hints li').count(), 1);
  await screenshot(page, 'inkwell-broken');
  assertQuiet(visit);
  await page.close();
});

test('a solved attempt is a link: opened, it passes every goal with the numbers `streamlab grade` prints', { timeout: 240_000 }, async () => {
  const cli = await grade('--scenario', solved);
  assert.equal(cli.passed, true);
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const state = await stateAtEnd(page, cli.link);
  assert.equal(state.figures.passed, true, JSON.stringify(state.figures));
  const goals = await shownGoals(page);
  assert.deepEqual(goals.map((g) => g.status), ['passed', 'passed', 'passed', 'passed']);
  assert.deepEqual(goals, cliGoals(cli));
  assert.equal(state.figures.recommender.caught_up_after_ms, cli.goals[2].measured);
  assert.equal(await page.locator('.p-link').innerText(), cli.link);
  assert.match(await page.locator('.p-summary').innerText(), /Solved/);
  await screenshot(page, 'inkwell-solved');
  assertQuiet(visit);
  await page.close();
});
