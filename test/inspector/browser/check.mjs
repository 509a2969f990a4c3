// The inspector's page in a real browser: starts a program that serves its registry (examples/inspector.cpp),
// opens its page in the system's headless Chromium through puppeteer-core, and checks what a person sees: the
// entity count, a component's field names and values, an edited value that the program then reads back from its
// registry (it prints "read back: ..."), a refused edit that names the field, and the banner once the program is
// gone. Prints "tessera-skip: <why>" and succeeds where puppeteer-core is not installed (npm ci in this folder).
//
//   node check.mjs --program <inspector example> --chromium /usr/bin/chromium [--screenshot out.png]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const pos = args.indexOf(name);
  return pos >= 0 && pos + 1 < args.length ? args[pos + 1] : fallback;
};
const program = option('--program');
const chromium = option('--chromium', '/usr/bin/chromium');
const screenshot = option('--screenshot');

let puppeteer;
try {
  puppeteer = (await import('puppeteer-core')).default;
} catch (failure) {
  console.log('tessera-skip: puppeteer-core is not installed (run npm ci in test/inspector/browser)');
  process.exit(0);
}

if (!program) {
  console.error('usage: node check.mjs --program <inspector example> [--chromium PATH] [--screenshot PNG]');
  process.exit(2);
}

function fail(message) {
  throw new Error(message);
}

/// Starts the program and resolves with its page's address once it prints it; keeps what it prints.
function start(path) {
  const child = spawn(path, ['--frames', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const output = { text: '' };
  const address = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output.text += chunk.toString();
      const match = /serving (http:\/\/\S+)/.exec(output.text);
      if (match) {
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`the program ended (${code}) before serving: ${output.text}`)));
    child.on('error', reject);
  });
  return { child, output, address };
}

/// page.waitForFunction, with what it waited for in the error.
async function waitOn(page, what, predicate) {
  try {
    await page.waitForFunction(predicate, { timeout: 15000 });
  } catch (failure) {
    fail(`timed out waiting for ${what}`);
  }
}

async function until(what, test, timeoutMs = 15000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await test()) {
      return;
    }
    await sleep(50);
  }
  fail(`timed out waiting for ${what}`);
}

const profile = mkdtempSync(join(tmpdir(), 'tessera-inspector-chromium-'));
const served = start(program);
let browser;

try {
  const url = await served.address;
  console.log(`page: ${url}`);
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: profile,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // the refused edit is an answer of 422, which Chromium reports on the console
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console: ${message.text()}`);
    }
  });
  await page.setViewport({ width: 1400, height: 1000 });
  await page.goto(url, { waitUntil: 'load' });

  // the world: 100 entities, as the program created them
  await waitOn(page, 'the entity count', () => document.getElementById('entity-count').textContent === '100');
  await waitOn(page, 'the rows', () => document.querySelectorAll('#entities tbody tr').length === 100);
  const status = await page.$eval('#status', (node) => node.textContent);
  if (!status.startsWith('live')) {
    fail(`the status says '${status}', not live`);
  }
  const firstRow = await page.$eval('#entities tbody tr[data-id="0"]', (row) =>
    Array.from(row.cells).map((cell) => cell.textContent));
  if (firstRow[2] !== 'unit 0' || !firstRow[3].includes('position')) {
    fail(`the first row reads ${JSON.stringify(firstRow)}`);
  }
  const range = await page.$eval('#page-range', (node) => node.textContent);
  if (range !== '1–100 of 100') {
    fail(`the pager reads '${range}'`);
  }

  // a filter: the entities with a velocity (3 of 4)
  await page.click('#filters .chip[data-name="velocity"]');
  await waitOn(page, 'the filtered pager', () => document.getElementById('page-range').textContent === '1–75 of 75');
  await page.click('#filters .chip[data-name="velocity"]');
  await page.click('#filters .chip[data-name="velocity"]');
  await waitOn(page, 'the unfiltered pager', () => document.getElementById('page-range').textContent === '1–100 of 100');

  // entity 0: its components with their field names and values
  await page.click('#entities tbody tr[data-id="0"]');
  await page.waitForSelector('.component[data-name="position"] [data-path="x"]', { timeout: 15000 });
  const fields = await page.$$eval('.component[data-name="position"] .fields .name', (nodes) =>
    nodes.map((node) => node.textContent));
  if (JSON.stringify(fields) !== JSON.stringify(['x', 'y'])) {
    fail(`position shows the fields ${JSON.stringify(fields)}`);
  }
  const values = await page.$$eval('.component[data-name="position"] [data-path]', (nodes) =>
    nodes.map((node) => node.value));
  if (JSON.stringify(values) !== JSON.stringify(['0', '0'])) {
    fail(`position shows the values ${JSON.stringify(values)}`);
  }
  const points = await page.$eval('.component[data-name="health"] [data-path="points"]', (node) => node.value);
  if (points !== '100') {
    fail(`health shows points = ${points}`);
  }
  const title = await page.$eval('#entity-title', (node) => node.textContent);
  if (!title.includes('unit 0')) {
    fail(`the entity's title reads '${title}'`);
  }

  // an edit the server refuses: the message names the field, the field is marked, the program sees nothing
  const x = '.component[data-name="position"] [data-path="x"]';
  await page.click(x, { count: 3 });
  await page.type(x, 'left');
  await page.click('.component[data-name="position"] .apply-button');
  await waitOn(page, 'the refusal', () => {
    const message = document.querySelector('.component[data-name="position"] .message');
    return message && message.classList.contains('error') && message.textContent.length > 0;
  });
  const refusal = await page.$eval('.component[data-name="position"] .message', (node) => node.textContent);
  if (!refusal.includes('x')) {
    fail(`the refusal does not name the field: '${refusal}'`);
  }
  if (!(await page.$eval(x, (node) => node.classList.contains('invalid')))) {
    fail('the refused field is not marked');
  }
  if (served.output.text.includes('read back')) {
    fail('the program saw a refused edit');
  }

  // an edit that goes through: the program reads the new value back from its registry
  await page.click(x, { count: 3 });
  await page.type(x, '42.5');
  // the page refreshes the entity several times a second: the field being typed in keeps its focus and its text
  const typed = await page.$eval(x, (node) => [node.value, document.activeElement === node]);
  if (typed[0] !== '42.5' || !typed[1]) {
    fail(`a refresh while typing left the field with '${typed[0]}'${typed[1] ? '' : ', without the focus'}`);
  }
  await page.click('.component[data-name="position"] .apply-button');
  await waitOn(page, 'the saved edit', () => {
    const message = document.querySelector('.component[data-name="position"] .message');
    return message && message.textContent === 'saved';
  });
  await until('the program to read the value back', () =>
    served.output.text.includes('read back: entity 0 position x=42.5 y=0'));
  const shown = await page.$eval(x, (node) => node.value);
  if (shown !== '42.5') {
    fail(`after the edit the page shows x = ${shown}`);
  }

  if (screenshot) {
    await page.screenshot({ path: screenshot });
    console.log(`screenshot: ${screenshot}`);
  }

  // the program goes away: the page says so
  served.child.kill('SIGINT');
  await waitOn(page, 'the page to say the program is gone', () =>
    document.getElementById('status').textContent === 'program gone' && !document.getElementById('banner').hidden);

  if (problems.length) {
    fail(problems.join('\n'));
  }
  console.log('the page showed 100 entities, position {x, y} = {0, 0}, refused x = "left" by name, and the program '
    + 'read back x = 42.5; then it said the program was gone');
} catch (failure) {
  console.error(`FAILED: ${failure.message}`);
  console.error(`program output:\n${served.output.text}`);
  process.exitCode = 1;
} finally {
  if (browser) {
    await browser.close();
  }
  served.child.kill('SIGKILL');
  rmSync(profile, { recursive: true, force: true });
}
