// The inspector in Debian's chromium, headless, driven by puppeteer-core, against
// `clawperator serve` on a virtual device, started at a terminal (tty_session: a pseudo-terminal
// as its controlling terminal) under an action policy with a confirm rule:
//   node inspector.test.mjs <clawperator-vdevice> <clawperator> <screenshot.png> <tty_session>
// The browser opens exactly the URL the server printed, its token in the fragment (never sent
// to a server): the page takes the token out of the address bar, keeps it in sessionStorage,
// and every request it makes, the event stream read through fetch included, carries
// `Authorization: Bearer`; no cookie exists anywhere in the browser. A page of another loopback
// port, visited after the inspector, receives no Authorization and no Cookie. Without the token
// the page loads (its files hold no data) but the data routes are 401 and the page asks for
// it. The page loads with the screenshot and a box per node; clicking a box shows a selector
// that a following POST /query resolves to exactly that node; the Click button changes what
// the next screenshot shows. Saves a screenshot of the page. Approvals (docs/guardrails.md §5): a
// confirm rule's 428 carries an approval id and no credential; the page opened with the token
// lists it without an Approve button; the API token alone cannot approve (403); the approver
// link the server wrote on its terminal (and nowhere else) opens a page that approves it, after
// which the identical request runs once.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import puppeteer from 'puppeteer-core';

const [vdevice, clawperator, picture, ttySession] = process.argv.slice(2);
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
const terminal = join(work, 'terminal');
writeFileSync(join(work, 'policy.json'), JSON.stringify({
  schemaVersion: 1,
  rules: [{ id: 'confirm-display', decision: 'confirm', labels: ['Display'],
            reason: 'display settings change what the user sees' }],
}));
// detached: a session of its own, whatever terminal the test runs from; tty_session then gives
// the server a terminal of its own, whose output goes to `terminal`.
const farm = spawn(ttySession, ['--transcript', terminal, '--', vdevice, 'with', '--', clawperator, 'serve', '--port', String(port)], {
  stdio: ['ignore', 'inherit', 'pipe'],
  detached: true,
  env: { ...process.env, CLAWPERATOR_STATE_DIR: join(work, 'state'), CLAWPERATOR_LOG_DIR: join(work, 'logs'),
         CLAWPERATOR_POLICY: join(work, 'policy.json'), ANDROID_SERIAL: '' },
});
let serverText = '';
farm.stderr.on('data', (chunk) => { serverText += chunk; });

// Another local server on another loopback port: it records what every request brought.
const seenElsewhere = [];
const elsewhere = http.createServer((request, response) => {
  seenElsewhere.push({ url: request.url, headers: request.headers });
  response.writeHead(200, { 'Content-Type': 'text/html' });
  response.end('<!doctype html><title>elsewhere</title><p>another local server</p>');
});
await new Promise((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
const elsewhereUrl = `http://127.0.0.1:${elsewhere.address().port}/`;

let browser;
try {
  for (let i = 0; i < 300 && !serverText.includes('listening on'); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const started = /listening on (http:\/\/127\.0\.0\.1:(\d+)\/#token=([0-9a-f]{64}))\n/.exec(serverText);
  check(started !== null && started[2] === String(port), 'serve started with a token in the URL\'s fragment');
  const printed = started[1];
  const token = started[3];
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
  const ours = [];
  page.on('request', (request) => {
    if (request.url().startsWith(base)) ours.push(request);
    else if (!request.url().startsWith('blob:')) foreign.push(request.url());
  });
  const refusals = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) refusals.push(message.text());
  });
  const client = await page.target().createCDPSession();
  const allCookies = async () => (await client.send('Network.getAllCookies')).cookies;

  // Without the token: the page loads, its data does not, and it asks for the token.
  const anonymous = await page.goto(base + '/', { waitUntil: 'load' });
  check(anonymous.status() === 200, 'without the token the page itself loads (it holds no data)');
  await page.waitForFunction(() => !document.querySelector('#token-form').hidden, { timeout: 30000 });
  check(ours.some((request) => request.url() === base + '/devices' && request.response()?.status() === 401),
        'its data is 401, and the page asks for the token');
  const unauthorized = await fetch(base + '/devices').then((response) => response.status);
  check(unauthorized === 401, 'a data route without the token is 401');
  const queried = await fetch(base + '/devices?token=' + token).then((response) => response.status);
  check(queried === 401, 'a token in the query string is refused');

  // From elsewhere, so that the printed URL is a new document, not a change of fragment.
  await page.goto('about:blank');
  ours.length = 0;
  const visit = await page.goto(printed, { waitUntil: 'load' });
  check(visit.status() === 200, 'the printed URL opens the page');
  await page.waitForFunction(() => document.body.dataset.refreshed === '1', { timeout: 60000 });
  check(page.url() === base + '/', 'the token left the address bar');
  check(await page.evaluate(() => sessionStorage.getItem('clawperator.token')) === token,
        'the page keeps the token in sessionStorage');
  check((await page.cookies()).length === 0 && (await allCookies()).length === 0,
        'no cookie exists in the browser');
  check(await page.evaluate(() => document.cookie) === '', 'document.cookie is empty');
  check(visit.headers()['set-cookie'] === undefined, 'the page set no cookie');
  const policy = visit.headers()['content-security-policy'] || '';
  check(policy.includes("frame-ancestors 'none'") && visit.headers()['x-frame-options'] === 'DENY',
        'the page forbids framing');
  const boxes = await page.$$eval('.box', (all) => all.length);
  const loaded = await page.$eval('#screenshot', (image) => image.complete && image.naturalWidth > 0 &&
                                  image.src.startsWith('blob:'));
  check(loaded, 'the screenshot is shown, from a blob: URL');
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

  const before = await page.$eval('#screenshot', (image) => image.dataset.artifact);
  const beforeBytes = await fetch(base + before, { headers: bearer }).then((response) => response.arrayBuffer());
  await page.click('#click-button');
  await page.waitForFunction(() => document.body.dataset.refreshed === '2', { timeout: 60000 });
  const after = await page.$eval('#screenshot', (image) => image.dataset.artifact);
  const afterBytes = await fetch(base + after, { headers: bearer }).then((response) => response.arrayBuffer());
  check(after !== before && Buffer.compare(Buffer.from(beforeBytes), Buffer.from(afterBytes)) !== 0,
        'the click changed what the next screenshot shows');
  const panel = await page.$eval('#attributes', (table) => table.rows.length);
  const selectorAfter = await page.$eval('#selector-json', (element) => element.textContent);
  check(panel === 0 && selectorAfter === '', 'the refresh cleared the last selection\'s panel');
  const events = await page.$$eval('#events li', (all) => all.map((item) => item.textContent));
  check(events.some((text) => text.includes('inspector-click')), 'the event list shows the click execution');
  check(foreign.length === 0, 'nothing was loaded from another host');
  check(refusals.length === 0, `the page runs under its CSP without a refusal ${refusals.join(' | ')}`);
  const stream = ours.filter((request) => request.url() === base + '/events');
  check(stream.length > 0 && stream.every((request) => request.resourceType() === 'fetch' &&
                                                       request.headers().authorization === 'Bearer ' + token),
        'the event stream is a fetch with the bearer token, not an EventSource');
  check(await page.evaluate(() => document.body.dataset.stream) === 'open', 'and it is open');
  const bare = ours.filter((request) => request.url().startsWith(base + '/') &&
                                        !['/', '/inspector/inspector.css', '/inspector/inspector.js', '/favicon.ico']
                                          .includes(new URL(request.url()).pathname) &&
                                        request.headers().authorization !== 'Bearer ' + token);
  check(bare.length === 0, `every data request carried the bearer token ${bare.map((request) => request.url()).join(' ')}`);
  check(ours.every((request) => request.headers().cookie === undefined), 'no request carried a cookie');
  check((await allCookies()).length === 0, 'still no cookie at the end');
  const logs = readdirSync(join(work, 'logs')).map((name) => readFileSync(join(work, 'logs', name), 'utf8')).join('');
  check(logs.includes('serve.http.request') && !logs.includes(token),
        'the server\'s access log never saw the token (the fragment is not sent)');
  await page.screenshot({ path: picture });
  console.log('saved ' + picture);

  // Approvals: a confirm rule's refusal carries an approval id, no credential.
  const clickDisplay = async (extra = {}) => {
    const response = await fetch(base + '/execute', {
      method: 'POST', headers: { 'Content-Type': 'application/json', ...bearer },
      body: JSON.stringify({
        execution: { commandId: 'browser-display', taskId: 'browser-display', source: 'browser-test',
                     expectedFormat: 'android-ui-automator', timeoutMs: 30000,
                     actions: [{ id: 'tap', type: 'click', params: { matcher: { textEquals: 'Display' } } }] },
        ...extra,
      }),
    });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text), text };
  };
  const required = await clickDisplay();
  check(required.status === 428 && required.body.code === 'CONFIRMATION_REQUIRED', 'a confirm rule answers 428');
  const approvalId = required.body.details.approvalId;
  check(/^[0-9a-f]{32}$/.test(approvalId) && !('token' in required.body.details) && !required.text.includes('"token"'),
        `with an approval id and no token field (${approvalId})`);
  check((required.text.match(/[0-9a-f]{32,}/g) || []).every((hex) => hex === approvalId),
        'and no other credential-like string in its body');
  const listed = `#approvals [data-approval-id="${approvalId}"]`;
  await page.waitForSelector(listed, { timeout: 30000 });
  check((await page.$eval(listed, (item) => item.textContent)).includes('click on "Display"'),
        'the page lists the pending approval with its question');
  check(await page.$(listed + ' .approve-button') === null,
        'opened with the token only, the page offers no Approve button');
  const answer = (headers) => fetch(base + '/approvals/' + approvalId, {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ approve: true }),
  }).then(async (response) => ({ status: response.status, body: await response.json() }));
  const tokenOnly = await answer(bearer);
  check(tokenOnly.status === 403 && tokenOnly.body.code === 'CONFIRMATION_APPROVER_REQUIRED',
        'the API token alone cannot approve (403 CONFIRMATION_APPROVER_REQUIRED)');
  const guessed = await answer({ ...bearer, 'X-Clawperator-Approver': '0'.repeat(64) });
  check(guessed.status === 403, 'nor a wrong approver credential');
  const early = await clickDisplay({ approvalId });
  check(early.status === 428 && early.body.details.approvalId === approvalId,
        'repeated before a person answered, the request runs nothing and gets the same id');

  // The approver link: written on the server's terminal, never on its stderr.
  const shown = readFileSync(terminal, 'utf8');
  const link = /(http:\/\/127\.0\.0\.1:(\d+)\/#token=([0-9a-f]{64})&approver=([0-9a-f]{64}))/.exec(shown);
  check(link !== null && link[2] === String(port) && link[3] === token,
        'the server wrote the approver link on its terminal');
  const approver = link[4];
  check(!serverText.includes(approver) && !printed.includes(approver), 'and not on its stderr');
  await page.goto('about:blank');
  await page.goto(link[1], { waitUntil: 'load' });
  await page.waitForSelector(listed + ' .approve-button', { timeout: 60000 });
  check(page.url() === base + '/', 'the approver credential left the address bar');
  check(await page.evaluate(() => sessionStorage.getItem('clawperator.approver')) === approver,
        'the page keeps it in sessionStorage');
  const [approvedResponse] = await Promise.all([
    page.waitForResponse((response) => response.url() === base + '/approvals/' + approvalId &&
                                       response.request().method() === 'POST', { timeout: 30000 }),
    page.click(listed + ' .approve-button'),
  ]);
  check(approvedResponse.status() === 200 &&
        approvedResponse.request().headers()['x-clawperator-approver'] === approver &&
        (await approvedResponse.json()).state === 'approved',
        'Approve in the page sent the approver credential, and the server approved it');
  await page.waitForFunction((selector) => document.querySelector(selector) === null, { timeout: 30000 }, listed);
  check(true, 'and the page no longer lists it');
  const ran = await clickDisplay({ approvalId });
  check(ran.status === 200 && ran.body.ok === true, 'then the identical request runs');
  const twice = await clickDisplay({ approvalId });
  check(twice.status === 409 && twice.body.code === 'CONFIRMATION_UNKNOWN', 'once');
  const decisions = readdirSync(join(work, 'logs')).map((name) => readFileSync(join(work, 'logs', name), 'utf8')).join('');
  check(decisions.includes('"outcome":"approved by a person"') && decisions.includes('"through":"inspector"') &&
        !decisions.includes(approver), 'the approval is logged, through the inspector, without the credential');

  // Another local server's page, in the same browser, after the inspector: nothing of ours.
  const other = await browser.newPage();
  const otherVisit = await other.goto(elsewhereUrl, { waitUntil: 'load' });
  check(otherVisit.status() === 200 && seenElsewhere.length > 0, 'a page of another loopback port was visited');
  await page.goto(elsewhereUrl, { waitUntil: 'load' });
  const leaked = seenElsewhere.filter((request) => request.headers.authorization !== undefined ||
                                                   request.headers.cookie !== undefined ||
                                                   JSON.stringify(request).includes(token));
  check(leaked.length === 0, `it received no Authorization, no Cookie, no token (${seenElsewhere.length} requests)`);
} finally {
  if (browser) await browser.close();
  elsewhere.close();
  farm.kill('SIGTERM');
  await new Promise((resolve) => farm.on('exit', resolve));
  rmSync(work, { recursive: true, force: true });
}
