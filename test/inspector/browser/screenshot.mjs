// Takes the screenshot of docs/inspector.md: the page of a running program (battle --inspect) in the system's
// headless Chromium, an entity selected, after a few seconds of frames.
//
//   node screenshot.mjs --url http://127.0.0.1:PORT/ --out docs/inspector.png [--select ID] [--wait SECONDS]
//                       [--chromium PATH]
// Without --select, the first entity that has a label (a unit of the battle) is selected. --wait (default 4) is how long
// the page runs before the picture: the chart shows the last 300 frames, so a longer wait moves the slow frames of
// Chromium's own start out of it.
import puppeteer from 'puppeteer-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const pos = args.indexOf(name);
  return pos >= 0 && pos + 1 < args.length ? args[pos + 1] : fallback;
};
const url = option('--url');
const out = option('--out');
const selected = option('--select');
const profile = mkdtempSync(join(tmpdir(), 'tessera-inspector-chromium-'));
const browser = await puppeteer.launch({
  executablePath: option('--chromium', '/usr/bin/chromium'),
  headless: true,
  userDataDir: profile,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1500, height: 1180 });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelectorAll('#entities tbody tr').length > 0, { timeout: 20000 });
  // typed into the page's id field: the list is redrawn every second, a click could land on another row
  let id = selected;
  if (id === undefined) {
    const world = await (await fetch(new URL('/api/world', url))).json();
    const page0 = await (await fetch(new URL(`/api/entities?with=${encodeURIComponent(world.label)}&limit=1`, url))).json();
    id = String(page0.entities[0].id);
  }
  await page.type('#goto-id', id);
  await page.keyboard.press('Enter');
  await page.waitForSelector('.component[data-name="position"]', { timeout: 20000 });
  // a few refreshes, so that the chart has frames and the values have moved
  await sleep(Number(option('--wait', '4')) * 1000);
  await page.screenshot({ path: out });
  console.log(`screenshot: ${out}`);
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
