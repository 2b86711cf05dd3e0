import { serveDist, chromiumPath, chromiumArgs } from '/work/wt-core/tests/e2e/harness.mjs';
import { chromium } from 'playwright-core';
const site = await serveDist();
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
page.on('console', (m) => console.log('console:', m.type(), m.text()));
page.on('pageerror', (e) => console.log('pageerror:', e.message));
const url = process.argv[2] ?? '#/partitions';
await page.goto(site.url + url);
await page.waitForTimeout(2000);
if (process.argv[3] === 'knob') {
  await page.fill('#knob-partitions', '3');
  await page.dispatchEvent('#knob-partitions', 'change');
  await page.waitForTimeout(500);
  console.log('members box', await page.locator('#knob-g0-members').count());
  await page.fill('#knob-g0-members', '5');
  await page.dispatchEvent('#knob-g0-members', 'change');
  await page.waitForTimeout(1000);
  console.log('partitions', await page.locator('svg.diagram g.partition').count(), 'members', await page.locator('svg.diagram g.member').count());
  console.log('url', page.url());
  console.log('banner', await page.locator('[role=alert], .error-banner, .banner').allInnerTexts());
  console.log('value', await page.inputValue('#knob-g0-members'));
}
await page.screenshot({ path: '/tmp/shot.png', fullPage: true });
await browser.close(); site.close();
