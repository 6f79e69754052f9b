// The inspector in Debian's chromium, headless, driven by puppeteer-core, against
// `clawperator serve` on a virtual device:
//   node inspector.test.mjs <clawperator-vdevice> <clawperator> <screenshot.png>
// The page loads with the screenshot and a box per node; clicking a box shows a selector that
// a following POST /query resolves to exactly that node; the Click button changes what the
// next screenshot shows. Saves a screenshot of the page.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import puppeteer from 'puppeteer-core';

const [vdevice, clawperator, picture] = process.argv.slice(2);
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';

function fail(message) {
  console.error('inspector test: ' + message);
  process.exitCode = 1;
  throw new Error(message);
}

function check(condition, message) {
  if (!condition) fail(message);
  console.log('ok - ' + message);
}

const freePort = () => new Promise((resolve) => {
  const server = net.createServer();
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const work = mkdtempSync(join(tmpdir(), 'clawperator-browser-'));
const farm = spawn(vdevice, ['with', '--', clawperator, 'serve', '--port', String(port)], {
  stdio: ['ignore', 'inherit', 'pipe'],
  env: { ...process.env, CLAWPERATOR_STATE_DIR: join(work, 'state'), CLAWPERATOR_LOG_DIR: join(work, 'logs'), ANDROID_SERIAL: '' },
});
let serverText = '';
farm.stderr.on('data', (chunk) => { serverText += chunk; });
let browser;
try {
  for (let i = 0; i < 300 && !serverText.includes('listening on'); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  check(serverText.includes('listening on ' + base), 'serve started on the virtual device');

  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: join(work, 'profile'),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  const foreign = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(base)) foreign.push(request.url());
  });
  await page.goto(base + '/', { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.dataset.refreshed === '1', { timeout: 60000 });
  const boxes = await page.$$eval('.box', (all) => all.length);
  const loaded = await page.$eval('#screenshot', (image) => image.complete && image.naturalWidth > 0);
  check(loaded, 'the screenshot is shown');
  check(boxes > 3, `a box per node is drawn over it (${boxes})`);

  // The launcher's Settings icon: click its box.
  const path = await page.$$eval('.box', (all) => {
    const box = all.find((element) => element.title.endsWith('"Settings"'));
    return box ? box.dataset.path : null;
  });
  check(path !== null, 'the Settings icon has a box');
  await page.click(`.box[data-path="${path}"]`);
  await page.waitForFunction(() => document.querySelector('#selector-check').className !== 'muted', { timeout: 60000 });
  const selector = JSON.parse(await page.$eval('#selector-json', (element) => element.textContent));
  const cli = await page.$eval('#selector-cli', (element) => element.textContent);
  check(Object.keys(selector).length > 0, `a selector is shown: ${JSON.stringify(selector)} / ${cli}`);
  check(await page.$eval(`#tree [data-path="${path}"]`, (element) => element.classList.contains('selected')),
        'the tree highlights the same node');

  const query = await fetch(base + '/query', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ matcher: selector }),
  }).then((response) => response.json());
  check(query.count === 1 && query.matches[0].path === path, 'POST /query resolves it to exactly that node');

  const before = await page.$eval('#screenshot', (image) => image.src);
  const beforeBytes = await fetch(before).then((response) => response.arrayBuffer());
  await page.click('#click-button');
  await page.waitForFunction(() => document.body.dataset.refreshed === '2', { timeout: 60000 });
  const after = await page.$eval('#screenshot', (image) => image.src);
  const afterBytes = await fetch(after).then((response) => response.arrayBuffer());
  check(after !== before && Buffer.compare(Buffer.from(beforeBytes), Buffer.from(afterBytes)) !== 0,
        'the click changed what the next screenshot shows');
  const panel = await page.$eval('#attributes', (table) => table.rows.length);
  const selectorAfter = await page.$eval('#selector-json', (element) => element.textContent);
  check(panel === 0 && selectorAfter === '', 'the refresh cleared the last selection\'s panel');
  const events = await page.$$eval('#events li', (all) => all.map((item) => item.textContent));
  check(events.some((text) => text.includes('inspector-click')), 'the event list shows the click execution');
  check(foreign.length === 0, 'nothing was loaded from another host');
  await page.screenshot({ path: picture });
  console.log('saved ' + picture);
} finally {
  if (browser) await browser.close();
  farm.kill('SIGTERM');
  await new Promise((resolve) => farm.on('exit', resolve));
  rmSync(work, { recursive: true, force: true });
}
