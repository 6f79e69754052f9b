// The Clawperator inspector: the screen with a box per node of its hierarchy, the hierarchy
// as a tree, both linked; the selected node's attributes and a selector that a POST /query
// resolves to exactly that node; click / type / read on it; the server's live events.
//
// The token (docs/serve.md §4, "The token"): the URL the server prints carries it in the
// fragment (#token=...), which a browser never sends to any server. The page keeps it in
// sessionStorage (this origin, this tab), takes it out of the address bar, and sends it as
// `Authorization: Bearer` with every request, the event stream included: hence fetch and a
// stream parser rather than EventSource, which cannot send a header. No cookie: a browser sends
// the cookies of 127.0.0.1 to every port of it, so another local server would receive one.
//
// Approvals (docs/guardrails.md §5): the page lists what the action policy stopped for a person
// (GET /approvals). Only the approver link, which the server wrote on its own terminal, carries
// the approver credential (#approver=...): kept the same way as the token, and sent as
// X-Clawperator-Approver with an answer (POST /approvals/:id); without it there is no Approve
// button.
'use strict';

const $ = (id) => document.getElementById(id);
const state = { nodes: [], selected: null, screenWidth: 0, busy: false, listening: false };
const TOKEN_KEY = 'clawperator.token';
const APPROVER_KEY = 'clawperator.approver';

// The credentials of the URL's fragment into sessionStorage, and out of the address bar.
function takeFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  let taken = false;
  for (const [name, key] of [['token', TOKEN_KEY], ['approver', APPROVER_KEY]]) {
    const given = fragment.get(name);
    if (!given) continue;
    sessionStorage.setItem(key, given);
    fragment.delete(name);
    taken = true;
  }
  if (taken) {
    const rest = fragment.toString();
    history.replaceState(null, '', location.pathname + location.search + (rest ? '#' + rest : ''));
  }
}

takeFromFragment();
let token = sessionStorage.getItem(TOKEN_KEY) || '';
const approver = sessionStorage.getItem(APPROVER_KEY) || '';

function authorization() {
  return token ? { Authorization: 'Bearer ' + token } : {};
}

function setStatus(text, bad) {
  $('status').textContent = text;
  $('status').className = bad ? 'bad' : '';
}

async function call(method, path, body) {
  const options = { method, headers: authorization(), cache: 'no-store' };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const document = await response.json();
  return { status: response.status, document };
}

function device() {
  const value = $('device').value;
  return value ? { deviceId: value } : {};
}

function stamp() {
  return Date.now() + '-' + Math.random().toString(36).slice(2, 9);
}

function execution(type, params) {
  const id = 'inspector-' + type + '-' + stamp();
  const action = { id: 'a1', type };
  if (params) action.params = params;
  return { commandId: id, taskId: id, source: 'clawperator-inspector',
           expectedFormat: 'android-ui-automator', timeoutMs: 30000, actions: [action] };
}

// [x1,y1][x2,y2] -> {x, y, w, h}
function parseBounds(text) {
  const m = /\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]/.exec(text || '');
  if (!m) return null;
  const [x1, y1, x2, y2] = m.slice(1).map(Number);
  return { x: x1, y: y1, w: x2 - x1, h: y2 - y1 };
}

// The nodes of a UI Automator dump, numbered as POST /query numbers them: the child indices
// of <node> elements from the root ("0.2.1").
function parseHierarchy(xml) {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  const nodes = [];
  const walk = (element, parent, prefix) => {
    let index = 0;
    for (const child of element.children) {
      if (child.tagName !== 'node') continue;
      const path = prefix === null ? String(index) : prefix + '.' + index;
      index += 1;
      const attributes = {};
      for (const attribute of child.attributes) attributes[attribute.name] = attribute.value;
      const node = { path, attributes, parent, children: [], bounds: parseBounds(attributes.bounds) };
      nodes.push(node);
      if (parent) parent.children.push(node);
      walk(child, node, path);
    }
  };
  walk(doc.documentElement, null, null);
  return nodes;
}

function label(node) {
  const a = node.attributes;
  const kind = (a.class || 'node').split('.').pop();
  const words = a.text || a['content-desc'] || a['resource-id'] || '';
  return kind + (words ? ' "' + words + '"' : '');
}

function hover(path, on) {
  for (const element of document.querySelectorAll('[data-path="' + path + '"]')) {
    element.classList.toggle('hover', on);
  }
}

function linkHover(element, node) {
  element.dataset.path = node.path;
  element.addEventListener('mouseenter', () => hover(node.path, true));
  element.addEventListener('mouseleave', () => hover(node.path, false));
  element.addEventListener('click', (event) => {
    event.preventDefault();
    event.stopPropagation();
    select(node);
  });
}

function drawBoxes() {
  const boxes = $('boxes');
  boxes.textContent = '';
  const scale = $('screenshot').clientWidth / (state.screenWidth || 1);
  for (const node of state.nodes) {
    if (!node.bounds || node.bounds.w <= 0 || node.bounds.h <= 0) continue;
    const box = document.createElement('div');
    box.className = 'box';
    box.title = label(node);
    box.style.left = node.bounds.x * scale + 'px';
    box.style.top = node.bounds.y * scale + 'px';
    box.style.width = node.bounds.w * scale + 'px';
    box.style.height = node.bounds.h * scale + 'px';
    linkHover(box, node);
    boxes.appendChild(box);
  }
}

function drawTree() {
  const build = (nodes) => {
    const list = document.createElement('ul');
    for (const node of nodes) {
      const item = document.createElement('li');
      if (node.children.length) {
        const details = document.createElement('details');
        details.open = true;
        const summary = document.createElement('summary');
        summary.textContent = label(node);
        linkHover(summary, node);
        details.appendChild(summary);
        details.appendChild(build(node.children));
        item.appendChild(details);
      } else {
        const leaf = document.createElement('span');
        leaf.className = 'leaf';
        leaf.textContent = label(node);
        linkHover(leaf, node);
        item.appendChild(leaf);
      }
      list.appendChild(item);
    }
    return list;
  };
  $('tree').textContent = '';
  $('tree').appendChild(build(state.nodes.filter((node) => !node.parent)));
}

// The matcher fields a node offers, most specific first.
function fieldsOf(node) {
  const a = node.attributes;
  const fields = [];
  if (a['resource-id']) fields.push(['resourceId', a['resource-id']]);
  if (a.text) fields.push(['textEquals', a.text]);
  if (a['content-desc']) fields.push(['contentDescEquals', a['content-desc']]);
  return fields;
}

function matchesLocally(node, matcher) {
  const a = node.attributes;
  for (const [key, value] of Object.entries(matcher)) {
    if (key === 'ancestor') {
      let up = node.parent;
      while (up && !matchesLocally(up, value)) up = up.parent;
      if (!up) return false;
    } else if (key === 'resourceId' && a['resource-id'] !== value) return false;
    else if (key === 'textEquals' && a.text !== value) return false;
    else if (key === 'contentDescEquals' && a['content-desc'] !== value) return false;
  }
  return true;
}

function uniqueLocally(node, matcher) {
  return state.nodes.filter((other) => matchesLocally(other, matcher)).length === 1 &&
         matchesLocally(node, matcher);
}

// One field, then two, then the node's fields scoped by the nearest ancestor that a field of
// its own identifies uniquely (a label used twice on the screen).
function candidateSelectors(node) {
  const fields = fieldsOf(node);
  const out = [];
  for (const [key, value] of fields) out.push({ [key]: value });
  if (fields.length > 1) out.push(Object.fromEntries(fields.slice(0, 2)));
  for (let up = node.parent; up; up = up.parent) {
    for (const [key, value] of fieldsOf(up)) {
      const ancestor = { [key]: value };
      if (!uniqueLocally(up, ancestor)) continue;
      for (const [own, ownValue] of fields) out.push({ [own]: ownValue, ancestor });
    }
  }
  return out;
}

function shellQuote(text) {
  return "'" + text.replace(/'/g, "'\\''") + "'";
}

function cliFlags(matcher) {
  if (matcher.ancestor) return '--selector ' + shellQuote(JSON.stringify(matcher)) + ' --strict';
  const flag = { resourceId: '--id', textEquals: '--text', contentDescEquals: '--desc' };
  return Object.entries(matcher).map(([key, value]) => flag[key] + ' ' + shellQuote(value))
      .concat(['--strict']).join(' ');
}

function center(node) {
  const b = node.bounds;
  return { x: Math.round(b.x + b.w / 2), y: Math.round(b.y + b.h / 2) };
}

async function select(node) {
  state.selected = node;
  for (const element of document.querySelectorAll('.selected')) element.classList.remove('selected');
  for (const element of document.querySelectorAll('[data-path="' + node.path + '"]')) {
    element.classList.add('selected');
  }
  $('hint').textContent = 'path ' + node.path;
  const table = $('attributes');
  table.textContent = '';
  for (const [name, value] of Object.entries(node.attributes)) {
    const row = table.insertRow();
    row.insertCell().textContent = name;
    row.insertCell().textContent = value;
  }
  $('selector-cli').textContent = '';
  $('selector-json').textContent = '';
  $('selector-check').textContent = 'checking with POST /query …';
  $('selector-check').className = 'muted';
  node.matcher = null;
  for (const matcher of candidateSelectors(node)) {
    if (!uniqueLocally(node, matcher)) continue;
    const { status, document } = await call('POST', '/query', { matcher, ...device() });
    if (state.selected !== node) return;
    if (status === 200 && document.count === 1 && document.matches[0].path === node.path) {
      node.matcher = matcher;
      break;
    }
  }
  if (node.matcher) {
    $('selector-check').textContent = 'unique: POST /query resolves it to exactly this node';
    $('selector-check').className = 'ok';
    $('selector-cli').textContent = cliFlags(node.matcher);
    $('selector-json').textContent = JSON.stringify(node.matcher);
  } else {
    $('selector-check').textContent = 'no unique selector: actions use the centre coordinate';
    $('selector-check').className = 'bad';
  }
  for (const id of ['click-button', 'type-button', 'read-button']) $(id).disabled = false;
}

// ancestor is not in the payload's matcher yet: such a node is clicked by its centre.
// The checked selector, `ancestor` included, with `strict`: should the screen have changed
// since the check, an ambiguous match is refused (NODE_AMBIGUOUS) instead of acting on the
// first one.
function target(node) {
  return node.matcher ? { matcher: node.matcher, strict: true } : null;
}

async function act(type, params) {
  if (state.busy) return;
  state.busy = true;
  setStatus(type + ' …');
  try {
    const { status, document } = await call('POST', '/execute', { execution: execution(type, params), ...device() });
    $('action-result').textContent = status + ' ' + JSON.stringify(document.envelope ? document.envelope.stepResults : document, null, 1);
  } finally {
    state.busy = false;
  }
  await refresh();
}

async function refresh() {
  setStatus('refreshing …');
  const shot = await call('POST', '/screenshot', device());
  const snap = await call('POST', '/snapshot', device());
  if (shot.status !== 200 || snap.status !== 200 || !snap.document.envelope) {
    setStatus((shot.document.code || snap.document.code || 'refresh failed') + ' ' +
              (shot.document.message || snap.document.message || ''), true);
    return;
  }
  const steps = snap.document.envelope.stepResults || [];
  const xml = steps.map((step) => step.data && step.data.text).find(Boolean) || '<hierarchy/>';
  state.nodes = parseHierarchy(xml);
  const roots = state.nodes.filter((node) => !node.parent && node.bounds);
  state.screenWidth = Math.max(1, ...roots.map((node) => node.bounds.x + node.bounds.w));
  const shotStep = (shot.document.envelope.stepResults || []).find((step) => step.data && step.data.artifactUrl);
  await showScreenshot(shotStep.data.artifactUrl);
  state.selected = null;
  drawBoxes();
  drawTree();
  // The screen changed: the last selection's attributes and selector describe a node that may
  // be gone, so the panel starts over.
  $('hint').textContent = 'Click a box or a line of the tree.';
  $('attributes').textContent = '';
  for (const id of ['selector-check', 'selector-cli', 'selector-json']) $(id).textContent = '';
  for (const id of ['click-button', 'type-button', 'read-button']) $(id).disabled = true;
  setStatus(state.nodes.length + ' nodes');
  document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
}

// An <img> cannot send a header: the PNG is fetched with the token and shown from a blob: URL
// (the server's Content-Security-Policy allows img-src blob:).
async function showScreenshot(url) {
  const response = await fetch(url, { headers: authorization(), cache: 'no-store' });
  if (!response.ok) return;
  const blob = await response.blob();
  const image = $('screenshot');
  const previous = image.src;
  await new Promise((resolve) => {
    image.onload = resolve;
    image.onerror = resolve;
    image.src = URL.createObjectURL(blob);
  });
  if (previous.startsWith('blob:')) URL.revokeObjectURL(previous);
  image.dataset.artifact = url;
}

// Server-Sent Events read from a fetch body: `dispatch(type, data)` per event, as EventSource
// would (lines end in CRLF, LF or CR; `data` lines joined by LF; comments and other fields
// ignored). Returns when the stream ends.
async function readEventStream(body, dispatch) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let type = '';
  let data = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    // A CR at the very end may be the first half of a CRLF: it waits for the next piece.
    const end = buffer.endsWith('\r') ? buffer.length - 1 : buffer.length;
    const lines = buffer.slice(0, end).split(/\r\n|\r|\n/);
    buffer = lines.pop() + buffer.slice(end);
    for (const line of lines) {
      if (line === '') {
        if (data.length) dispatch(type || 'message', data.join('\n'));
        type = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let text = colon < 0 ? '' : line.slice(colon + 1);
      if (text.startsWith(' ')) text = text.slice(1);
      if (field === 'event') type = text;
      else if (field === 'data') data.push(text);
    }
  }
}

// The approvals nobody answered yet, each with the question a person is shown, and Approve /
// Decline when this page has the approver credential.
async function loadApprovals() {
  const { status, document: listed } = await call('GET', '/approvals');
  if (status !== 200) return;
  const list = $('approvals');
  list.textContent = '';
  $('approver-status').textContent = approver
    ? 'You opened the approver link: you may approve or decline.'
    : 'Only a person with the approver link the server showed on its terminal can approve ' +
      'here; or run `clawperator approve ID` on the server\'s host.';
  for (const approval of listed.approvals || []) {
    const item = document.createElement('li');
    item.dataset.approvalId = approval.approvalId;
    const question = document.createElement('pre');
    question.textContent = approval.question + '\nApproval ' + approval.approvalId +
                           ', expires ' + approval.expiresAt;
    item.appendChild(question);
    if (approver) {
      const actions = document.createElement('div');
      actions.className = 'approval-actions';
      for (const [text, className, yes] of [['Approve', 'approve-button', true],
                                            ['Decline', 'decline-button', false]]) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = className;
        button.textContent = text;
        button.addEventListener('click', () => answerApproval(approval.approvalId, yes));
        actions.appendChild(button);
      }
      item.appendChild(actions);
    }
    list.appendChild(item);
  }
  document.body.dataset.approvals = String((listed.approvals || []).length);
}

async function answerApproval(id, yes) {
  const response = await fetch('/approvals/' + id, {
    method: 'POST',
    headers: { ...authorization(), 'Content-Type': 'application/json',
               'X-Clawperator-Approver': approver },
    body: JSON.stringify({ approve: yes }),
    cache: 'no-store',
  });
  const answer = await response.json();
  setStatus(response.status === 200 ? 'approval ' + id + ' ' + answer.state
                                    : (answer.code || 'refused') + ' ' + (answer.message || ''),
            response.status !== 200);
  await loadApprovals();
}

function addEvent(text, failed) {
  const item = document.createElement('li');
  item.textContent = new Date().toLocaleTimeString() + ' ' + text;
  if (failed) item.className = 'failed';
  $('events').prepend(item);
  while ($('events').children.length > 200) $('events').lastChild.remove();
}

function onEvent(type, text) {
  if (type === 'heartbeat') {
    document.body.dataset.stream = 'open';
    return;
  }
  const data = JSON.parse(text);
  if (type === 'clawperator:execution') {
    addEvent('execution ' + data.commandId + ' on ' + data.deviceId + ': ' + data.status +
             (data.result && data.result.code ? ' ' + data.result.code : ''), !data.ok);
  } else if (type === 'clawperator:result') {
    addEvent('result ' + data.envelope.commandId + ' ' + data.envelope.status,
             data.envelope.status !== 'success');
  } else if (type === 'clawperator:approval') {
    addEvent('approval ' + data.approvalId + ' ' + data.state, false);
    loadApprovals();
  }
}

// Follows /events for as long as the page is open, reconnecting as EventSource would: after
// the stream ended (a `dropped` subscriber, a restart) or was refused (503 at the server's
// limit), 3 s later. A 401 stops it until a token is given.
async function listenToEvents() {
  state.listening = true;
  for (;;) {
    try {
      const response = await fetch('/events', {
        headers: { Accept: 'text/event-stream', ...authorization() }, cache: 'no-store',
      });
      if (response.status === 401) {
        state.listening = false;
        askForToken('The event stream needs the server\'s token');
        return;
      }
      if (response.ok && response.body) await readEventStream(response.body, onEvent);
    } catch (error) {
      // The connection failed or broke: retried below.
    }
    document.body.dataset.stream = 'closed';
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}

// A server started with a token of its user's (--token-file, CLAWPERATOR_SERVE_TOKEN) prints
// no URL with it: the page asks for it.
function askForToken(message) {
  $('token-form').hidden = false;
  setStatus(message, true);
}

async function begin() {
  const { status, document } = await call('GET', '/devices');
  if (status === 401) {
    askForToken(document.message || 'This server needs its token');
    return;
  }
  $('token-form').hidden = true;
  $('device').textContent = '';
  for (const entry of document.devices || []) {
    const option = new Option(entry.serial + ' (' + entry.state + ')', entry.serial);
    $('device').add(option);
  }
  if (!state.listening) listenToEvents();
  await loadApprovals();
  await refresh();
}

function start() {
  $('refresh').addEventListener('click', refresh);
  $('device').addEventListener('change', refresh);
  $('click-button').addEventListener('click', () => {
    const node = state.selected;
    act('click', target(node) || { coordinate: center(node) });
  });
  $('type-button').addEventListener('click', () => {
    const node = state.selected;
    const params = target(node) || { matcher: { resourceId: node.attributes['resource-id'] } };
    act('enter_text', { ...params, text: $('type-text').value });
  });
  $('read-button').addEventListener('click', () => {
    const node = state.selected;
    act('read_text', target(node) || { matcher: { textEquals: node.attributes.text } });
  });
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    token = $('token-input').value.trim();
    $('token-input').value = '';
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    begin();
  });
  window.addEventListener('resize', drawBoxes);
  begin();
}

start();
