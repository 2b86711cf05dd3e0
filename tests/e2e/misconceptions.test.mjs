// The misconceptions: the gallery has a card per belief, each card opens its refuting run
// locked ("predict, then run"), and the run, revealed and played to its end, shows the card's
// figure above zero on the page and in the state the lesson reports (the name `streamlab
// simulate` prints).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, useSiteAndBrowser } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** The largest value anywhere in `figures` whose dotted path ends in `name` (a figure reported
 * once per consumer group, say, or one lane's `microbatch.external_duplicates`). */
function largest(figures, name) {
  let best;
  const walk = (value, path) => {
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
    } else if ((path === name || path.endsWith(`.${name}`)) && typeof value === 'number') {
      best = best === undefined ? value : Math.max(best, value);
    }
  };
  walk(figures, '');
  return best;
}

/** Every card of the gallery's misconceptions section: its link and the figure it names. */
async function cards(page) {
  const section = page.locator('section.misconceptions');
  return section.locator('article.misconception').evaluateAll((articles) =>
    articles.map((a) => ({
      preset: a.dataset.preset,
      href: a.querySelector('a.card-link').getAttribute('href'),
      figure: a.querySelector('.misconception-proof code').textContent,
    })),
  );
}

test('every misconception card opens its run locked, and the run refutes the belief by the card’s figure', { timeout: 600_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  await waitForApp(page);
  const found = await cards(page);
  assert.ok(found.length >= 6, `cards: ${JSON.stringify(found)}`);
  await screenshot(page, 'misconceptions-gallery');
  for (const card of found) {
    assert.match(card.href, new RegExp(`preset=${card.preset}&lock$`));
    // A whole load, as following the card from a course page is (a new fragment alone makes
    // the loader reload for another family's lesson, which bundles.test.mjs checks).
    await page.goto('about:blank');
    await page.goto(`${env.site.url}${card.href}`);
    await waitForApp(page);
    // Locked: the run waits for a prediction.
    await page.locator('.challenge button').waitFor();
    const before = await page.evaluate(() => window.streamlab.get());
    assert.equal(before.playing, false, card.preset);
    assert.match(await page.locator('.misconception-banner').innerText(), /still going/);
    await page.locator('.challenge button').click();
    await page.locator('.question').click();
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowUp');
    // A misconception's run stops at its end, where the headless run stops too.
    await page.locator('.transport button.primary', { hasText: 'Play' }).waitFor({ timeout: 120_000 });
    const state = await page.evaluate(() => window.streamlab.get());
    const value = largest(state.figures, card.figure);
    assert.ok(value > 0, `${card.preset}: ${card.figure} = ${value}`);
    const banner = page.locator('.misconception-banner');
    assert.equal(Number(await banner.locator(`[data-misconception-figure="${card.figure}"]`).innerText()), Number(value.toFixed(2)));
    assert.match(await banner.innerText(), /Refuted/);
  }
  await screenshot(page, 'misconceptions-last-run');
  assertQuiet(visit);
  await page.close();
});
