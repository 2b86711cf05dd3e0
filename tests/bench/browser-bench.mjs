// The in-browser benchmark: opens the built site (dist/) in headless Chromium and prints what
// `window.__streamlab.bench()` returns, plus how long the app took to first render. Every
// figure line starts with "browser " so `cargo xtask bench` can gather them.
//
// Run: cargo xtask bench (builds dist/ first), or node tests/bench/browser-bench.mjs.

import { launchBrowser, openPage, serveDist, waitForApp } from '../e2e/harness.mjs';

const site = await serveDist({ subPath: '/bench/' });
const browser = await launchBrowser();
try {
  const visit = await openPage(browser, site.url);
  await waitForApp(visit.page);
  // The page's own clock starts at navigation, so this is load + compile + first render,
  // without the browser's start-up.
  const firstRenderMs = await visit.page.evaluate(() => performance.now());
  console.log(`browser first_render_ms: ${firstRenderMs.toFixed(0)}`);

  const result = await visit.page.evaluate(async () => {
    const bench = window.__streamlab?.bench;
    if (typeof bench !== 'function') return { available: false };
    return { available: true, figures: await bench() };
  });
  if (result.available) {
    console.log(`browser bench: ${JSON.stringify(result.figures)}`);
  } else {
    console.log('browser bench: not available (the app defines no window.__streamlab.bench() yet)');
  }
  for (const error of [...visit.pageErrors, ...visit.consoleErrors]) {
    console.error(`page error: ${error}`);
  }
} finally {
  await browser.close();
  await site.close();
}
