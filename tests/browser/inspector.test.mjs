// The inspector in Debian's chromium, headless, driven by puppeteer-core, against
// `clawperator serve` on a virtual device:
//   node inspector.test.mjs <clawperator-vdevice> <clawperator> <screenshot.png>
// The server listens beyond loopback with the token it made: without it the page is 401; the
// URL it printed sets an HttpOnly, SameSite=Strict cookie and redirects to / without the
// token, and from then on the page, its fetches and its EventSource work by the cookie, under
// the server's Content-Security-Policy. The page loads with the screenshot and a box per node;
// clicking a box shows a selector that a following POST /query resolves to exactly that node;
// the Click button changes what the next screenshot shows. Saves a screenshot of the page.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
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

// An address of this host beyond loopback, so that the token is what lets the page in.
const address = Object.values(networkInterfaces()).flat()
  .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address || '127.0.0.1';
const port = await freePort();
const base = `http://${address}:${port}`;
const work = mkdtempSync(join(tmpdir(), 'clawperator-browser-'));
const farm = spawn(vdevice, ['with', '--', clawperator, 'serve', '--host', '0.0.0.0',
                             '--port', String(port)], {
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
  const started = /listening on http:\/\/0\.0\.0\.0:(\d+)\/\?token=([0-9a-f]{64})\n/.exec(serverText);
  check(started !== null && started[1] === String(port), `serve started with a token (${address})`);
  const token = started[2];
  const bearer = { Authorization: 'Bearer ' + token };

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
  const refusals = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) refusals.push(message.text());
  });
  const anonymous = await page.goto(base + '/', { waitUntil: 'load' });
  check(anonymous.status() === 401, 'without the token the page is 401');

  const visit = await page.goto(base + '/?token=' + token, { waitUntil: 'load' });
  check(visit.status() === 200 && page.url() === base + '/',
        'the printed URL lands on / without the token in the address bar');
  check(visit.request().redirectChain().length === 1 &&
        visit.request().redirectChain()[0].response().status() === 303, 'by one 303 redirect');
  const cookies = await page.cookies();
  const cookie = cookies.find((each) => each.name === `clawperator_token_${port}`);
  check(cookie && cookie.value === token && cookie.httpOnly && cookie.sameSite === 'Strict',
        'the token is an HttpOnly, SameSite=Strict cookie');
  check(!(await page.evaluate(() => document.cookie)).includes(token), 'that no script can read');
  const policy = visit.headers()['content-security-policy'] || '';
  check(policy.includes("frame-ancestors 'none'") && visit.headers()['x-frame-options'] === 'DENY',
        'the page forbids framing');
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
    method: 'POST', headers: { 'Content-Type': 'application/json', ...bearer }, body: JSON.stringify({ matcher: selector }),
  }).then((response) => response.json());
  check(query.count === 1 && query.matches[0].path === path, 'POST /query resolves it to exactly that node');

  const before = await page.$eval('#screenshot', (image) => image.src);
  const beforeBytes = await fetch(before, { headers: bearer }).then((response) => response.arrayBuffer());
  await page.click('#click-button');
  await page.waitForFunction(() => document.body.dataset.refreshed === '2', { timeout: 60000 });
  const after = await page.$eval('#screenshot', (image) => image.src);
  const afterBytes = await fetch(after, { headers: bearer }).then((response) => response.arrayBuffer());
  check(after !== before && Buffer.compare(Buffer.from(beforeBytes), Buffer.from(afterBytes)) !== 0,
        'the click changed what the next screenshot shows');
  const panel = await page.$eval('#attributes', (table) => table.rows.length);
  const selectorAfter = await page.$eval('#selector-json', (element) => element.textContent);
  check(panel === 0 && selectorAfter === '', 'the refresh cleared the last selection\'s panel');
  const events = await page.$$eval('#events li', (all) => all.map((item) => item.textContent));
  check(events.some((text) => text.includes('inspector-click')), 'the event list shows the click execution');
  check(foreign.length === 0, 'nothing was loaded from another host');
  check(refusals.length === 0, `the page runs under its CSP without a refusal ${refusals.join(' | ')}`);
  await page.screenshot({ path: picture });
  console.log('saved ' + picture);
} finally {
  if (browser) await browser.close();
  farm.kill('SIGTERM');
  await new Promise((resolve) => farm.on('exit', resolve));
  rmSync(work, { recursive: true, force: true });
}
