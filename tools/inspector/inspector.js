// The tessera inspector's page (docs/inspector.md): asks the JSON API of tessera::inspector::server once a second
// and shows the world, a page of entities filtered by components, the selected entity's components with editable
// fields, the pools' memory and the systems' times. No framework and no build step: plain DOM calls.
'use strict';

const refreshMs = 1000;
const tokenKey = 'tessera-inspector-token';
const colors = ['#2f6fdb', '#e0732c', '#2f9e5a', '#b8429c', '#8a6d1f', '#2aa1b3', '#c4413b', '#6b5bd2', '#5e7a2a'];

const state = {
  token: sessionStorage.getItem(tokenKey) || '',
  filters: new Map(), // name -> 'with' | 'without'
  offset: 0,
  limit: 100,
  total: 0,
  selected: null, // the integral identifier, as a string
  identifier: { index_bits: 20, version_bits: 12 },
  readOnly: false,
  lastAnswer: null,
  busy: false,
  entityTicket: 0,
};

const $ = (id) => document.getElementById(id);

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === 'class') {
      node.className = value;
    } else if (key === 'text') {
      node.textContent = value;
    } else if (key.startsWith('on')) {
      node.addEventListener(key.slice(2), value);
    } else if (value !== undefined && value !== null && value !== false) {
      node.setAttribute(key, value === true ? '' : value);
    }
  }
  for (const child of children) {
    if (child !== null && child !== undefined) {
      node.append(child);
    }
  }
  return node;
}

function formatBytes(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit + 1 < units.length) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

function formatMs(ms) {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

// ---------------------------------------------------------------------------------------------------------------
// the API

class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.field = body && body.field ? body.field : '';
  }
}

async function api(path, options = {}) {
  const headers = { ...(options.headers || {}) };
  if (state.token) {
    headers.Authorization = `Bearer ${state.token}`;
  }
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  let answer;
  try {
    answer = await fetch(path, { method: options.method || 'GET', headers, body: options.body, cache: 'no-store' });
  } catch (failure) {
    programGone(null);
    throw failure;
  }
  let body = null;
  try {
    body = await answer.json();
  } catch (failure) {
    body = null;
  }
  if (answer.status === 401 || (answer.status === 403 && body && body.field === 'Authorization')) {
    askForToken(body ? body.error : 'a token is needed');
    throw new ApiError(answer.status, body);
  }
  if (answer.status === 503) {
    programGone(body ? body.error : null);
    throw new ApiError(answer.status, body);
  }
  programHere();
  if (!answer.ok) {
    throw new ApiError(answer.status, body);
  }
  return body;
}

function programGone(reason) {
  const since = state.lastAnswer ? ` (last answer at ${state.lastAnswer.toLocaleTimeString()})` : '';
  $('status').textContent = 'program gone';
  $('status').className = 'status gone';
  $('banner-text').textContent =
    `The program is not answering${since}: it has stopped, or it no longer calls poll().` + (reason ? ` ${reason}` : '');
  $('token-form').hidden = true;
  $('banner').hidden = false;
  document.body.classList.add('gone');
}

function programHere() {
  state.lastAnswer = new Date();
  $('status').textContent = `live · ${state.lastAnswer.toLocaleTimeString()}`;
  $('status').className = 'status live';
  if ($('token-form').hidden) {
    $('banner').hidden = true;
  }
  document.body.classList.remove('gone');
}

function askForToken(message) {
  $('banner-text').textContent = `This inspector needs its token: ${message}`;
  $('token-form').hidden = false;
  $('banner').hidden = false;
  $('status').textContent = 'token needed';
  $('status').className = 'status gone';
}

// ---------------------------------------------------------------------------------------------------------------
// identifiers

function identifierOf(index, version) {
  const bits = BigInt(state.identifier.index_bits);
  return ((BigInt(version) << bits) | BigInt(index)).toString();
}

function isIdentifier(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value) &&
    Object.keys(value).length === 2 && Number.isInteger(value.index) && Number.isInteger(value.version);
}

// ---------------------------------------------------------------------------------------------------------------
// world, pools, filters

function renderWorld(world) {
  $('entity-count').textContent = world.entities.toLocaleString('en-US');
  $('tick').textContent = world.tick.toLocaleString('en-US');
  $('frames').textContent = world.frames.toLocaleString('en-US');
  $('memory').textContent = formatBytes(world.bytes);
  $('mode').hidden = !world.read_only;
  state.readOnly = world.read_only;
  state.identifier = world.identifier;
  document.title = `tessera inspector · ${world.entities.toLocaleString('en-US')} entities`;
}

function renderPools(pools) {
  const rows = pools.pools.slice().sort((a, b) => b.bytes - a.bytes);
  const largest = Math.max(pools.entities.bytes, ...rows.map((row) => row.bytes), 1);
  const container = $('pools');
  container.replaceChildren();
  const line = (name, title, bytes, size, disabled, opaque) => {
    const fill = element('div', { class: 'fill' });
    fill.style.width = `${(100 * bytes) / largest}%`;
    const bar = element('div', { class: 'bar', title }, fill);
    if (disabled > 0 && size > 0) {
      const off = element('div', { class: 'fill disabled' });
      off.style.width = `${((100 * bytes) / largest) * (disabled / size)}%`;
      off.style.right = `${100 - (100 * bytes) / largest}%`;
      bar.append(off);
    }
    const count = `${size.toLocaleString('en-US')}${disabled ? `, ${disabled.toLocaleString('en-US')} off` : ''}`;
    container.append(element('div', { class: 'pool' },
      element('div', { class: opaque ? 'name opaque' : 'name', title: name },
        name, ' ', element('span', { class: 'count', text: count })),
      bar,
      element('div', { class: 'bytes', text: formatBytes(bytes) })));
  };
  line('(entities)', 'the entity storage', pools.entities.bytes, pools.entities.live, 0, false);
  for (const row of rows) {
    const title = `${row.type}: ${row.size} elements of ${row.element_size} bytes, capacity ${row.capacity}` +
      (row.registered ? '' : ' (not registered: opaque)');
    line(row.name, title, row.bytes, row.size, row.disabled, !row.registered);
  }
  $('pools-total').textContent = `${formatBytes(pools.bytes)} in all`;
}

function renderFilters(world, components) {
  const names = new Map();
  for (const entry of components) {
    names.set(entry.name, false);
  }
  for (const pool of world.pools) {
    names.set(pool.name, !pool.registered);
  }
  const container = $('filters');
  const existing = Array.from(container.children).map((chip) => chip.dataset.name).join('\n');
  if (existing === Array.from(names.keys()).join('\n')) {
    for (const chip of container.children) {
      chip.className = chipClass(chip.dataset.name, names.get(chip.dataset.name));
    }
    return;
  }
  container.replaceChildren();
  for (const [name, opaque] of names) {
    const chip = element('button', { type: 'button', class: chipClass(name, opaque), 'data-name': name, text: name,
      title: 'click: with, again: without, again: either' });
    chip.addEventListener('click', () => {
      const mode = state.filters.get(name);
      if (mode === undefined) {
        state.filters.set(name, 'with');
      } else if (mode === 'with') {
        state.filters.set(name, 'without');
      } else {
        state.filters.delete(name);
      }
      chip.className = chipClass(name, opaque);
      state.offset = 0;
      refreshEntities();
    });
    container.append(chip);
  }
}

function chipClass(name, opaque) {
  const mode = state.filters.get(name);
  return `chip${mode ? ` ${mode}` : ''}${opaque ? ' opaque' : ''}`;
}

// ---------------------------------------------------------------------------------------------------------------
// the entity browser

function entitiesQuery() {
  const list = (mode) => Array.from(state.filters).filter(([, value]) => value === mode)
    .map(([name]) => encodeURIComponent(name)).join(',');
  const parts = [`offset=${state.offset}`, `limit=${state.limit}`];
  const withList = list('with');
  const withoutList = list('without');
  if (withList) {
    parts.push(`with=${withList}`);
  }
  if (withoutList) {
    parts.push(`without=${withoutList}`);
  }
  return `/api/entities?${parts.join('&')}`;
}

async function refreshEntities() {
  const page = await api(entitiesQuery());
  state.total = page.total;
  if (state.offset > 0 && state.offset >= page.total) {
    state.offset = Math.max(0, Math.floor((page.total - 1) / state.limit) * state.limit);
    return refreshEntities();
  }
  const body = $('entities').tBodies[0];
  body.replaceChildren();
  for (const row of page.entities) {
    const id = String(row.id);
    const tr = element('tr', { 'data-id': id, class: (id === state.selected ? 'selected' : '') +
      (row.enabled ? '' : ' disabled') },
      element('td', { text: id }),
      element('td', { text: `${row.index}:${row.version}` }),
      element('td', { text: row.label === undefined ? '' : row.label }),
      element('td', { class: 'components', text: row.components.join(', ') }));
    tr.addEventListener('click', () => select(id));
    body.append(tr);
  }
  const last = Math.min(page.total, state.offset + page.entities.length);
  $('page-range').textContent = page.total === 0 ? 'no entity' :
    `${(state.offset + 1).toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${page.total.toLocaleString('en-US')}`;
  $('first-page').disabled = state.offset === 0;
  $('previous-page').disabled = state.offset === 0;
  $('next-page').disabled = state.offset + state.limit >= page.total;
  $('last-page').disabled = state.offset + state.limit >= page.total;
}

function movePage(offset) {
  state.offset = Math.max(0, offset);
  refreshEntities().catch(() => {});
}

// ---------------------------------------------------------------------------------------------------------------
// the selected entity

function select(id) {
  state.selected = id;
  for (const tr of $('entities').tBodies[0].rows) {
    tr.classList.toggle('selected', tr.dataset.id === id);
  }
  $('components').replaceChildren();
  $('entity-message').textContent = '';
  refreshEntity().catch(() => {});
}

async function refreshEntity() {
  if (state.selected === null) {
    return;
  }
  // the answer to an older request (another selection, an overlapping refresh) is dropped: rendering it would
  // replace the fields a person is typing into
  state.entityTicket += 1;
  const ticket = state.entityTicket;
  let entity;
  try {
    entity = await api(`/api/entities/${state.selected}`);
  } catch (failure) {
    if (ticket !== state.entityTicket) {
      return;
    }
    if (failure instanceof ApiError && failure.status === 404) {
      $('entity-title').textContent = state.selected;
      $('entity-empty').textContent = `Entity ${state.selected} no longer exists.`;
      $('entity-empty').hidden = false;
      $('entity-actions').hidden = true;
      $('components').replaceChildren();
    }
    throw failure;
  }
  if (ticket !== state.entityTicket) {
    return;
  }
  $('entity-title').textContent = `${entity.id} (${entity.index}:${entity.version})` +
    (entity.label === undefined ? '' : ` · ${entity.label}`);
  $('entity-empty').hidden = true;
  $('entity-actions').hidden = false;
  $('entity-enabled').checked = entity.enabled;
  $('entity-enabled').disabled = state.readOnly;
  $('entity-destroy').disabled = state.readOnly;
  renderComponents(entity);
}

function renderComponents(entity) {
  const container = $('components');
  const cards = new Map(Array.from(container.children).map((card) => [card.dataset.name, card]));
  const order = [];
  for (const component of entity.components) {
    let card = cards.get(component.name);
    if (!card) {
      card = buildCard(entity, component);
    } else if (card.dataset.dirty !== '1' && card.dataset.value !== JSON.stringify(component.value)) {
      const fresh = buildCard(entity, component);
      card.replaceWith(fresh);
      card = fresh;
    }
    card.classList.toggle('off', !component.enabled);
    card.querySelector('.enabled').checked = component.enabled;
    order.push(card);
    cards.delete(component.name);
  }
  // only the cards out of place move: moving a card takes it out of the document for a moment, which takes the focus
  // from a field being typed in (the rest of the typing would be lost), so a refresh that changes nothing moves nothing
  order.forEach((card, index) => {
    if (container.children[index] !== card) {
      container.insertBefore(card, container.children[index] || null);
    }
  });
  while (container.children.length > order.length) {
    container.lastElementChild.remove();
  }
}

function buildCard(entity, component) {
  const enabled = element('input', { type: 'checkbox', class: 'enabled', disabled: state.readOnly || !component.can_disable });
  enabled.checked = component.enabled;
  const message = element('span', { class: 'message' });
  enabled.addEventListener('change', () => switchComponent(entity.id, component.name, enabled.checked, message));
  const card = element('div', { class: `component${component.opaque ? ' opaque' : ''}`, 'data-name': component.name },
    element('h3', {},
      element('span', { text: component.name }),
      element('span', { class: 'type', text: component.type }),
      element('label', {}, enabled, ' enabled')));
  card.dataset.value = JSON.stringify(component.value);
  if (component.opaque) {
    card.append(element('p', { class: 'hint', text: `opaque: ${component.size} bytes (register it with ` +
      'server.component<T>() to see its fields)' }));
    card.append(message);
    return card;
  }
  const fields = element('div', { class: 'fields' });
  const editable = component.editable && !state.readOnly;
  if (isPlainObject(component.value) && !isIdentifier(component.value) && !isOpaque(component.value)) {
    renderObject(fields, component.value, '', editable, card, component.fields || []);
  } else if (isOpaque(component.value)) {
    fields.append(element('span', { class: 'hint', text: `opaque ${component.value.opaque} (${component.value.size} bytes)` }));
  } else {
    renderField(fields, '(value)', component.value, '', editable, card);
  }
  if (Object.keys(component.value || {}).length === 0 && isPlainObject(component.value)) {
    fields.append(element('span', { class: 'hint', text: 'no fields' }));
  }
  card.append(fields);
  if (editable && !(isPlainObject(component.value) && Object.keys(component.value).length === 0)) {
    const apply = element('button', { type: 'button', class: 'primary apply-button', text: 'Apply' });
    const revert = element('button', { type: 'button', text: 'Revert' });
    apply.addEventListener('click', () => writeComponent(entity.id, component, card, message));
    revert.addEventListener('click', () => {
      card.dataset.dirty = '0';
      card.dataset.value = '';
      refreshEntity().catch(() => {});
    });
    card.append(element('div', { class: 'apply' }, apply, revert, message));
  } else {
    card.append(message);
  }
  return card;
}

/// A number as a person reads it: a value that a 32-bit float holds exactly (what a float field becomes in JSON,
/// 0.1f reads 0.10000000149011612) is shown with the fewest digits that give the same float back.
function shortNumber(value) {
  if (Number.isInteger(value) || !Number.isFinite(value) || Math.fround(value) !== value) {
    return String(value);
  }
  for (let digits = 1; digits <= 9; digits += 1) {
    const text = String(Number(value.toPrecision(digits)));
    if (Math.fround(Number(text)) === value) {
      return text;
    }
  }
  return String(value);
}

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/// A part the server cannot show (json_value::describe writes it as {"opaque": type, "size": bytes}).
function isOpaque(value) {
  return isPlainObject(value) && Object.keys(value).length === 2 && typeof value.opaque === 'string' &&
    Number.isInteger(value.size);
}

// Fields are named by json_value's paths ("x", "inner.x"): the ones the server names when it refuses a value.
function renderObject(container, value, path, editable, card, order = []) {
  // the declaration order the server gives for the top level, then whatever else the object holds
  const keys = order.filter((key) => key in value).concat(Object.keys(value).filter((key) => !order.includes(key)));
  for (const key of keys) {
    const child = value[key];
    const childPath = path === '' ? key : `${path}.${key}`;
    if (isOpaque(child)) {
      container.append(element('span', { class: 'name', text: key }),
        element('span', { class: 'hint', text: `opaque ${child.opaque} (${child.size} bytes)` }));
    } else if (isPlainObject(child) && !isIdentifier(child)) {
      const set = element('fieldset', {}, element('legend', { text: key }));
      const inner = element('div', { class: 'fields' });
      renderObject(inner, child, childPath, editable, card);
      set.append(inner);
      container.append(set);
    } else {
      renderField(container, key, child, childPath, editable, card);
    }
  }
}

function renderField(container, key, value, path, editable, card) {
  const markDirty = () => {
    card.dataset.dirty = '1';
  };
  let input;
  if (typeof value === 'boolean') {
    input = element('input', { type: 'checkbox', 'data-kind': 'boolean' });
    input.checked = value;
  } else if (typeof value === 'number') {
    const shown = shortNumber(value);
    input = element('input', { type: 'text', inputmode: 'decimal', 'data-kind': 'number', value: shown });
    // an untouched field goes back exactly as it came
    input.dataset.shown = shown;
    input.dataset.original = JSON.stringify(value);
  } else if (typeof value === 'string') {
    input = element('input', { type: 'text', 'data-kind': 'string', value });
  } else if (isIdentifier(value)) {
    input = element('input', { type: 'text', 'data-kind': 'json', value: JSON.stringify(value) });
    const id = identifierOf(value.index, value.version);
    const link = element('span', { class: 'link', text: `→ ${value.index}:${value.version}`, title: `select entity ${id}` });
    link.addEventListener('click', () => select(id));
    const wrap = element('div', {}, input, ' ', link);
    input.dataset.path = path;
    input.disabled = !editable;
    input.addEventListener('focus', markDirty);
    input.addEventListener('input', markDirty);
    input.addEventListener('change', markDirty);
    container.append(element('span', { class: 'name', text: key }), wrap);
    return;
  } else {
    input = element('textarea', { rows: 1, 'data-kind': 'json' });
    input.value = JSON.stringify(value);
  }
  input.dataset.path = path;
  input.disabled = !editable;
  // a field being edited keeps its text while the values around it refresh
  input.addEventListener('focus', markDirty);
  input.addEventListener('input', markDirty);
  input.addEventListener('change', markDirty);
  container.append(element('span', { class: 'name', text: key }), input);
}

function setAt(target, path, value) {
  if (path === '') {
    return value;
  }
  const keys = path.split('.');
  let node = target;
  for (let pos = 0; pos + 1 < keys.length; pos += 1) {
    node = node[keys[pos]];
  }
  node[keys[keys.length - 1]] = value;
  return target;
}

function collect(component, card) {
  let value = JSON.parse(card.dataset.value || 'null');
  if (value === null) {
    value = structuredClone(component.value);
  }
  for (const input of card.querySelectorAll('[data-path]')) {
    input.classList.remove('invalid');
    const kind = input.dataset.kind;
    let field;
    if (kind === 'boolean') {
      field = input.checked;
    } else if (kind === 'number' && input.value === input.dataset.shown) {
      field = JSON.parse(input.dataset.original);
    } else if (kind === 'number') {
      const text = input.value.trim();
      // anything that is not a number goes as typed: the server says which field is wrong
      field = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) ? Number(text) : text;
    } else if (kind === 'string') {
      field = input.value;
    } else {
      try {
        field = JSON.parse(input.value);
      } catch (failure) {
        input.classList.add('invalid');
        throw new Error(`${input.dataset.path || 'value'}: not JSON`);
      }
    }
    value = setAt(value, input.dataset.path, field);
  }
  return value;
}

async function writeComponent(id, component, card, message) {
  message.className = 'message';
  message.textContent = 'saving…';
  // a refresh under way carries the value from before the write: its answer is dropped
  state.entityTicket += 1;
  let value;
  try {
    value = collect(component, card);
  } catch (failure) {
    message.className = 'message error';
    message.textContent = failure.message;
    return;
  }
  try {
    const answer = await api(`/api/entities/${id}/components/${encodeURIComponent(component.name)}`,
      { method: 'PUT', body: JSON.stringify(value) });
    // and so does one that started while the write was under way
    state.entityTicket += 1;
    card.dataset.dirty = '0';
    const fresh = buildCard({ id }, answer);
    fresh.querySelector('.message').className = 'message ok';
    fresh.querySelector('.message').textContent = 'saved';
    card.replaceWith(fresh);
  } catch (failure) {
    message.className = 'message error';
    message.textContent = failure.message;
    if (failure instanceof ApiError && (failure.field === 'body' || failure.field.startsWith('body.'))) {
      // "body.inner.x" marks the field inner.x; "body.list[3]" the field list; "body" every field
      const path = failure.field.slice(5);
      for (const input of card.querySelectorAll('[data-path]')) {
        const own = input.dataset.path;
        if (path === '' || own === path || path.startsWith(`${own}[`) || path.startsWith(`${own}.`) ||
          own.startsWith(`${path}.`)) {
          input.classList.add('invalid');
        }
      }
    }
  }
}

async function switchComponent(id, name, enabled, message) {
  state.entityTicket += 1;
  try {
    await api(`/api/entities/${id}/components/${encodeURIComponent(name)}/enabled`,
      { method: 'PUT', body: JSON.stringify(enabled) });
    message.className = 'message ok';
    message.textContent = enabled ? 'enabled' : 'disabled';
  } catch (failure) {
    message.className = 'message error';
    message.textContent = failure.message;
  }
  refreshEntity().catch(() => {});
}

// ---------------------------------------------------------------------------------------------------------------
// systems

function renderSystems(systems) {
  const series = [{ name: 'frame', ms: systems.frame_ms, last: systems.frame_ms[systems.frame_ms.length - 1] || 0,
    mean: average(systems.frame_ms), max: Math.max(0, ...systems.frame_ms), color: '#1d232b', width: 2 }];
  systems.tasks.forEach((task, pos) => {
    series.push({ ...task, color: colors[pos % colors.length], width: 1.25 });
  });
  $('frame-time').textContent = systems.frame_ms.length ? `${formatMs(series[0].last)} ms` : '–';
  $('systems-empty').hidden = systems.frames > 0;
  drawChart(series, systems.first);
  const body = $('systems').tBodies[0];
  body.replaceChildren();
  for (const line of series) {
    const swatch = element('span', { class: 'swatch' });
    swatch.style.background = line.color;
    body.append(element('tr', {},
      element('td', {}, swatch),
      element('td', { text: line.name }),
      element('td', { text: formatMs(line.last) }),
      element('td', { text: formatMs(line.mean) }),
      element('td', { text: formatMs(line.max) })));
  }
}

function average(values) {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
}

function niceCeiling(value) {
  if (value <= 0) {
    return 1;
  }
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (value <= step * power) {
      return step * power;
    }
  }
  return 10 * power;
}

function drawChart(series, first) {
  const canvas = $('chart');
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 720;
  const height = canvas.clientHeight || 240;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const context = canvas.getContext('2d');
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, width, height);
  const left = 44;
  const bottom = height - 20;
  const top = 8;
  const right = width - 8;
  const count = Math.max(...series.map((line) => line.ms.length), 1);
  const ceiling = niceCeiling(Math.max(...series.map((line) => Math.max(0, ...line.ms))) * 1.05);
  context.font = '11px system-ui, sans-serif';
  context.fillStyle = '#66707c';
  context.strokeStyle = '#eef1f4';
  context.lineWidth = 1;
  for (let step = 0; step <= 4; step += 1) {
    const y = bottom - ((bottom - top) * step) / 4;
    context.beginPath();
    context.moveTo(left, y);
    context.lineTo(right, y);
    context.stroke();
    context.textAlign = 'right';
    context.fillText(formatMs((ceiling * step) / 4), left - 6, y + 4);
  }
  context.textAlign = 'left';
  context.fillText(`frame ${first}`, left, height - 4);
  context.textAlign = 'right';
  context.fillText(`frame ${first + count - 1}`, right, height - 4);
  const x = (pos) => left + ((right - left) * pos) / Math.max(count - 1, 1);
  const y = (ms) => bottom - ((bottom - top) * ms) / ceiling;
  for (const line of series.slice(1).concat(series.slice(0, 1))) {
    if (line.ms.length === 0) {
      continue;
    }
    context.strokeStyle = line.color;
    context.lineWidth = line.width;
    context.beginPath();
    const offset = count - line.ms.length;
    line.ms.forEach((ms, pos) => {
      if (pos === 0) {
        context.moveTo(x(pos + offset), y(ms));
      } else {
        context.lineTo(x(pos + offset), y(ms));
      }
    });
    context.stroke();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// the loop

async function refresh() {
  if (state.busy) {
    return;
  }
  state.busy = true;
  try {
    const [world, pools, components, systems] = await Promise.all([
      api('/api/world'), api('/api/pools'), api('/api/components'), api('/api/systems')]);
    renderWorld(world);
    renderPools(pools);
    renderFilters(world, components.components);
    renderSystems(systems);
    await refreshEntities();
    await refreshEntity();
  } catch (failure) {
    // the banner says what is wrong; the next round tries again
  } finally {
    state.busy = false;
  }
}

function start() {
  const match = /(?:^#|&)token=([^&]*)/.exec(window.location.hash);
  if (match) {
    state.token = decodeURIComponent(match[1]);
    sessionStorage.setItem(tokenKey, state.token);
    history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    state.token = $('token-input').value;
    sessionStorage.setItem(tokenKey, state.token);
    $('token-form').hidden = true;
    $('banner').hidden = true;
    refresh();
  });
  $('first-page').addEventListener('click', () => movePage(0));
  $('previous-page').addEventListener('click', () => movePage(state.offset - state.limit));
  $('next-page').addEventListener('click', () => movePage(state.offset + state.limit));
  $('last-page').addEventListener('click', () =>
    movePage(Math.floor(Math.max(state.total - 1, 0) / state.limit) * state.limit));
  $('goto-id').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && /^\d+$/.test(event.target.value.trim())) {
      select(event.target.value.trim());
    }
  });
  $('entity-enabled').addEventListener('change', async (event) => {
    try {
      await api(`/api/entities/${state.selected}/enabled`, { method: 'PUT', body: JSON.stringify(event.target.checked) });
      $('entity-message').className = 'message ok';
      $('entity-message').textContent = event.target.checked ? 'enabled' : 'disabled';
    } catch (failure) {
      $('entity-message').className = 'message error';
      $('entity-message').textContent = failure.message;
    }
    refresh();
  });
  $('entity-destroy').addEventListener('click', async () => {
    if (!window.confirm(`Destroy entity ${state.selected}?`)) {
      return;
    }
    try {
      await api(`/api/entities/${state.selected}`, { method: 'DELETE' });
      $('entity-message').className = 'message ok';
      $('entity-message').textContent = 'destroyed';
    } catch (failure) {
      $('entity-message').className = 'message error';
      $('entity-message').textContent = failure.message;
    }
    refresh();
  });
  refresh();
  setInterval(refresh, refreshMs);
}

start();
