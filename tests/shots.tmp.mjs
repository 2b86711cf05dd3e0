import { serveDist, chromiumPath, chromiumArgs } from './e2e/harness.mjs';
import { chromium } from 'playwright-core';
const site = await serveDist();
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
const shots = process.argv.slice(2);
for (const spec of shots) {
  const [name, url, action] = spec.split('|');
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => console.log(name, 'pageerror:', e.message));
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log(name, m.type(), m.text().slice(0, 200)); });
  await page.goto(site.url + url);
  await page.waitForTimeout(2500);
  if (action === 'compare') { await page.click('.compare-toggle button'); await page.waitForTimeout(4000); }
  if (action === 'play') { await page.keyboard.press('Space'); await page.waitForTimeout(4000); }
  await page.screenshot({ path: `/tmp/shot-${name}.png`, fullPage: false });
  await page.close();
}
await browser.close(); site.close();
