// The page of StreamService: a live marble diagram of /events and the users
// browser over /users/stream. Plain script, no library, no build step.
'use strict';

(() => {
  const KINDS = ['subscribe', 'data', 'error', 'retry', 'end', 'dispose'];
  // Older runs are dropped beyond this many, so a long-open page stays light.
  const MAX_RUNS = 40;
  // A run shorter than this still spreads its marbles over the lane.
  const MIN_SPAN_MS = 20;
  // Room between two marbles moved apart: a data marble's 1 px ring on each side.
  const MARBLE_GAP_PX = 2;

  const $ = (id) => document.getElementById(id);
  const el = (tag, props = {}, children = []) => {
    const node = Object.assign(document.createElement(tag), props);
    for (const child of children) node.append(child);
    return node;
  };

  // ---- Pipeline events -------------------------------------------------

  const lanesBox = $('lanes');
  const runs = new Map(); // requestId → run
  // The users browser's own runs, by the request id it sent: both are pipeline `users-stream`,
  // and only this tab knows which is the serial one and which the parallel one.
  const ownRuns = new Map(); // requestId → 'serial (concatMap)' | 'parallel (merge)'
  const queued = [];
  let paused = false;
  // The event id a reconnect asked to resume after, until the feed shows whether it could:
  // the first event confirms it, a reset says those events are gone.
  let resumePending = null;

  function setStatus(state, text) {
    const status = $('feed-status');
    status.dataset.state = state;
    status.textContent = text;
  }

  function showNotice(text) {
    const notice = $('feed-notice');
    notice.textContent = text;
    notice.hidden = false;
  }

  // One /events connection for all of this page's tabs (page-feed.js says why): a SharedWorker
  // holds it where the browser has them, else this tab opens its own.
  function connect() {
    if (typeof SharedWorker === 'function') {
      const worker = new SharedWorker('/page-feed.js', { name: 'stream-service-events' });
      worker.port.addEventListener('message', (message) => onFeedMessage(message.data));
      worker.port.start();
      addEventListener('pagehide', () => worker.port.postMessage({ type: 'leave' }));
      addEventListener('pageshow', (event) => { if (event.persisted) worker.port.postMessage({ type: 'join' }); });
    } else {
      openEventFeed(onFeedMessage);
    }
  }

  function onFeedMessage(message) {
    if (message.type === 'event') onPipelineEvent(message);
    else if (message.type === 'reset') onReset(message);
    else if (message.type === 'status') onFeedStatus(message);
  }

  function onFeedStatus({ state, resumedAfter }) {
    if (state === 'open') {
      // Open is not resumed yet: the server may answer with a reset (it restarted, or the events
      // left its buffer), so the status claims the resume only once an event shows it.
      resumePending = resumedAfter || null;
      setStatus('open', resumedAfter
        ? `Connected to /events again — asked to resume after event ${resumedAfter}.`
        : 'Connected to /events — live.');
    } else if (state === 'closed') {
      // The browser gave up (e.g. the server answered something other than an event stream).
      setStatus('reconnecting', 'The feed closed; connecting again in 3 s…');
    } else if (state === 'reconnecting') {
      setStatus('reconnecting', resumedAfter
        ? `Connection lost; reconnecting, to resume after event ${resumedAfter}…`
        : 'Connection lost; reconnecting…');
    } else if (state === 'shutdown') {
      setStatus('reconnecting', 'The server is shutting down; the browser will reconnect.');
    }
  }

  function onPipelineEvent(message) {
    let event;
    try { event = JSON.parse(message.data); } catch { return; }
    if (resumePending !== null) {
      if (!paused) setStatus('open', `Connected to /events again — resumed after event ${resumePending}, nothing missed.`);
      resumePending = null;
    }
    if (paused) {
      queued.push(event);
      setStatus('paused', `Paused — ${queued.length} event${queued.length === 1 ? '' : 's'} waiting.`);
      return;
    }
    draw(event);
  }

  function onReset(message) {
    let oldest = '?';
    try { oldest = JSON.parse(message.data).oldestAvailableId; } catch { /* keep '?' */ }
    const missed = message.missedAfter ? `after event ${message.missedAfter}` : 'before this connection';
    if (!paused) {
      setStatus('open', message.missedAfter
        ? `Connected to /events again — could not resume after event ${message.missedAfter}: those events are gone (see below); live from here.`
        : 'Connected to /events — live; earlier events are gone (see below).');
    }
    resumePending = null;
    showNotice(`Reset: the server no longer has the events ${missed} (it restarted, or they left its replay buffer); ` +
      `the oldest it still has is ${oldest}. Events from there on follow.`);
    for (const run of runs.values()) {
      for (const track of run.lanes.values()) {
        track.append(el('span', { className: 'reset-mark', title: 'reset' }));
        track.lastChild.style.left = '100%';
      }
    }
  }

  // `--trace-link-template` (e.g. a Jaeger or Tempo URL with {traceId}); empty: the id alone.
  const traceLinkTemplate = document.querySelector('meta[name="trace-link-template"]')?.content || '';

  // The run's trace, once an event of it names one: its id, linked through the template.
  function showTrace(run, traceId) {
    if (!traceId || run.traceId) return;
    run.traceId = traceId;
    const id = el('code', { textContent: traceId });
    const shown = traceLinkTemplate
      ? el('a', { href: traceLinkTemplate.replaceAll('{traceId}', encodeURIComponent(traceId)), target: '_blank', rel: 'noopener noreferrer' }, [id])
      : id;
    run.trace.replaceChildren(document.createTextNode('trace '), shown);
    run.article.dataset.traceId = traceId;
  }

  function runFor(event, time) {
    let run = runs.get(event.requestId);
    if (run) return run;
    const lanes = el('div', { className: 'run-lanes' });
    const rows = el('tbody');
    const own = ownRuns.get(event.requestId);
    const title = el('h3', { textContent: own ? `${event.pipeline} · ${own}` : event.pipeline });
    const info = el('p');
    const trace = el('p', { className: 'run-trace' });
    const log = el('details', {}, [
      el('summary', { textContent: 'Event log' }),
      el('table', {}, [
        el('thead', {}, [el('tr', {}, ['id', 'ms', 'stage', 'kind', 'detail'].map((h) => el('th', { scope: 'col', textContent: h })))]),
        rows,
      ]),
    ]);
    const article = el('article', { className: 'run' }, [el('header', {}, [title, info, trace]), lanes, log]);
    article.dataset.pipeline = event.pipeline;
    article.dataset.requestId = event.requestId;
    run = { article, lanes: new Map(), lanesBox: lanes, rows, info, start: time, span: MIN_SPAN_MS, duration: 0, counts: {}, events: 0, requestId: event.requestId, trace, traceId: null };
    runs.set(event.requestId, run);
    lanesBox.prepend(article);
    while (runs.size > MAX_RUNS) {
      const [oldest] = runs.keys();
      runs.get(oldest).article.remove();
      runs.delete(oldest);
    }
    applyPipelineFilter(run);
    $('lanes-empty').hidden = true;
    return run;
  }

  function laneFor(run, stage) {
    let track = run.lanes.get(stage);
    if (track) return track;
    track = el('div', { className: 'track' });
    track.setAttribute('role', 'img');
    track.counts = {};
    const row = el('div', { className: 'lane' }, [el('span', { className: 'stage', textContent: stage, title: stage }), track]);
    run.lanesBox.append(row);
    run.lanes.set(stage, track);
    return track;
  }

  function draw(event) {
    const time = Date.parse(event.timestamp);
    const run = runFor(event, time);
    showTrace(run, event.traceId);
    const t = Math.max(0, time - run.start);
    run.duration = Math.max(run.duration, t);
    run.span = Math.max(run.span, t);
    run.article.style.setProperty('--span', String(run.span));
    const track = laneFor(run, event.stage);
    const label = `${event.kind} at +${t} ms${event.detail ? ': ' + event.detail : ''}`;
    const marble = el('span', { className: `marble ${event.kind}`, title: `${event.stage} — ${label}` });
    marble.style.setProperty('--t', String(t));
    marble.dataset.kind = event.kind;
    marble.dataset.t = String(t);
    track.append(marble);
    layOut(run);
    track.counts[event.kind] = (track.counts[event.kind] || 0) + 1;
    track.setAttribute('aria-label', `Stage ${event.stage}: ` +
      KINDS.filter((k) => track.counts[k]).map((k) => `${track.counts[k]} ${k}`).join(', '));
    run.counts[event.kind] = (run.counts[event.kind] || 0) + 1;
    run.events += 1;
    const outcome = run.counts.error ? ` · ${run.counts.error} error${run.counts.error > 1 ? 's' : ''}` : '';
    const retries = run.counts.retry ? ` · ${run.counts.retry} retr${run.counts.retry > 1 ? 'ies' : 'y'}` : '';
    // The run's real length, from its first event to its last (timestamps are whole milliseconds);
    // the lanes may be drawn over a longer span, so that a 2 ms run is still readable.
    const took = run.duration > 0 ? `over ${run.duration} ms` : 'within 1 ms';
    run.info.textContent = `request ${run.requestId} · ${run.events} events ${took}${outcome}${retries}`;
    run.rows.append(el('tr', {}, [event.id, t, event.stage, event.kind, event.detail || ''].map((v) => el('td', { textContent: String(v) }))));
  }

  // Places each shown marble of each lane at its time, then moves apart the ones that would
  // overlap (several events in one millisecond are common: a subscribe, its data and its end),
  // keeping their order, so every ▲ and □ stays visible; the title keeps the exact time.
  function layOut(run) {
    for (const track of run.lanes.values()) {
      const width = track.clientWidth;
      const shown = [...track.querySelectorAll('.marble')].filter((m) => m.offsetWidth > 0)
        .sort((a, b) => Number(a.dataset.t) - Number(b.dataset.t)); // stable: same time, order of arrival
      if (width === 0 || shown.length === 0) continue; // hidden: laid out when shown again
      const size = shown.map((m) => m.offsetWidth + MARBLE_GAP_PX);
      const left = shown.map((m, i) => Math.max(0, width - size[i]) * Number(m.dataset.t) / run.span);
      for (let i = 1; i < left.length; i += 1) left[i] = Math.max(left[i], left[i - 1] + size[i - 1]);
      // Pushed past the end: pull back from the right, as far as the start allows.
      for (let i = left.length - 1; i >= 0; i -= 1) {
        const limit = i === left.length - 1 ? width - size[i] : left[i + 1] - size[i];
        left[i] = Math.max(0, Math.min(left[i], limit));
      }
      shown.forEach((m, i) => { m.style.left = `${left[i]}px`; });
    }
  }

  function layOutAll() {
    for (const run of runs.values()) layOut(run);
  }

  function applyPipelineFilter(run) {
    const wanted = $('filter-pipeline').value;
    run.article.hidden = wanted !== '' && run.article.dataset.pipeline !== wanted;
  }

  function applyKindFilter() {
    for (const box of document.querySelectorAll('input[name=kind]')) {
      lanesBox.classList.toggle(`hide-${box.value}`, !box.checked);
    }
  }

  $('filter-pipeline').addEventListener('change', () => {
    for (const run of runs.values()) applyPipelineFilter(run);
    layOutAll();
  });
  for (const box of document.querySelectorAll('input[name=kind]')) {
    box.addEventListener('change', () => { applyKindFilter(); layOutAll(); });
  }
  addEventListener('resize', layOutAll);
  $('pause').addEventListener('click', () => {
    paused = !paused;
    $('pause').setAttribute('aria-pressed', String(paused));
    $('pause').textContent = paused ? 'Resume' : 'Pause';
    if (paused) {
      setStatus('paused', 'Paused — new events wait until you resume.');
    } else {
      for (const event of queued.splice(0)) draw(event);
      setStatus('open', 'Connected to /events — live.');
    }
  });
  $('clear').addEventListener('click', () => {
    for (const run of runs.values()) run.article.remove();
    runs.clear();
    $('lanes-empty').hidden = false;
    $('feed-notice').hidden = true;
  });

  // ---- Users browser ---------------------------------------------------

  const feeds = {};

  function loadColumn(mode, params) {
    feeds[mode]?.abort();
    const list = $(`${mode}-users`);
    const summary = $(`${mode}-summary`);
    list.replaceChildren();
    summary.textContent = 'Loading…';
    delete summary.dataset.state;
    const query = new URLSearchParams({ ...params, avatars: mode, embed: 'data-uri' });
    // Our own id for the run, so its lanes above can say which column it is before any event arrives.
    const requestId = `users-${mode}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    ownRuns.set(requestId, mode === 'serial' ? 'serial (concatMap)' : 'parallel (merge)');
    while (ownRuns.size > MAX_RUNS) ownRuns.delete(ownRuns.keys().next().value);
    const started = performance.now();
    let landed = 0;
    const run = new AbortController();
    feeds[mode] = run;
    const elapsed = () => Math.round(performance.now() - started);
    const on = {
      user(data) {
        const user = JSON.parse(data);
        landed += 1;
        list.append(el('li', {}, [userButton(user, landed, elapsed())]));
        summary.textContent = `${landed} landed after ${elapsed()} ms…`;
      },
      error(data) {
        list.append(el('li', {}, [failedUser(JSON.parse(data))]));
      },
      end(data) {
        const result = JSON.parse(data);
        summary.textContent = `${result.users} users, ${result.errors} errors — ${result.elapsedMs} ms on the server, ${elapsed()} ms here.`;
      },
      shutdown() {
        run.abort();
        summary.textContent = 'The server shut down mid-stream.';
      },
    };
    readEventStream(`/users/stream?${query}`, run.signal, requestId, (type, data) => on[type]?.(data)).catch((error) => {
      if (run.signal.aborted) return; // a newer load, or the shutdown event, ended this one
      summary.dataset.state = 'failed';
      summary.textContent = error instanceof Problem
        ? `× ${error.status} ${error.title}: ${error.detail}`
        : `The stream failed after ${elapsed()} ms: ${error.message}`;
    });
  }

  // An answer that is not the event stream asked for: its RFC 9457 problem, or the bare status.
  class Problem extends Error {
    constructor(status, title, detail) {
      super(`${status} ${title}: ${detail}`);
      Object.assign(this, { status, title, detail });
    }

    static async of(response) {
      const type = response.headers.get('Content-Type') || '';
      if (type.startsWith('application/problem+json')) {
        try {
          const problem = await response.json();
          return new Problem(problem.status ?? response.status, problem.title ?? response.statusText, problem.detail ?? '');
        } catch { /* not the JSON it claims to be: the status will do */ }
      }
      return new Problem(response.status, response.statusText || 'HTTP error', `the server answered ${type || 'without a type'}`);
    }
  }

  // Reads a Server-Sent Events answer with fetch, calling `onEvent(type, data)` per event, until it
  // ends. Not an EventSource: an EventSource hides any answer that is not an event stream, so a
  // 400 problem (an out-of-range Since) showed only as "the stream failed"; and a run that
  // broke is not to be started again by a reconnect anyway.
  async function readEventStream(url, signal, requestId, onEvent) {
    const response = await fetch(url, { signal, headers: { Accept: 'text/event-stream', 'X-Request-ID': requestId } });
    if (!response.ok || !(response.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
      throw await Problem.of(response);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      // An event ends at a blank line (the service writes LF line ends).
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let type = 'message';
        const data = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue; // a heartbeat comment
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(line[colon + 1] === ' ' ? colon + 2 : colon + 1);
          if (field === 'event') type = text;
          else if (field === 'data') data.push(text);
        }
        if (data.length > 0) onEvent(type, data.join('\n'));
      }
    }
  }

  function userButton(user, order, ms) {
    const image = el('img', { src: user.avatar.dataURI || user.avatar.url, alt: '', width: 40, height: 40 });
    const button = el('button', { type: 'button', className: 'user' }, [
      image,
      el('span', { className: 'login', textContent: user.login }),
      el('span', { className: 'when', textContent: `#${order} · +${ms} ms${user.avatar.placeholder ? ' · placeholder' : ''}` }),
    ]);
    button.dataset.login = user.login;
    button.dataset.id = String(user.id);
    button.setAttribute('aria-pressed', 'false');
    button.setAttribute('aria-label', `${user.login}, landed ${order}${ordinal(order)} after ${ms} ms`);
    button.addEventListener('click', () => showProfile(user.login));
    return button;
  }

  function failedUser(failure) {
    const box = el('div', { className: 'user failed' }, [
      el('span', { className: 'mark error', title: 'error' }),
      el('span', { className: 'login', textContent: failure.login || 'the run' }),
      el('span', { className: 'when', textContent: `× ${failure.status}: ${failure.detail}` }),
    ]);
    return box;
  }

  function ordinal(n) {
    const tens = n % 100;
    if (tens >= 11 && tens <= 13) return 'th';
    return ['th', 'st', 'nd', 'rd'][n % 10] || 'th';
  }

  async function showProfile(login) {
    for (const button of document.querySelectorAll('button.user')) {
      button.setAttribute('aria-pressed', String(button.dataset.login === login));
    }
    const body = $('profile-body');
    body.replaceChildren(el('p', { textContent: `Loading /users/${login}…` }));
    try {
      const response = await fetch(`/users/${encodeURIComponent(login)}`, { headers: { Accept: 'application/json' } });
      const answer = await response.json();
      if (!response.ok) {
        body.replaceChildren(el('p', { textContent: `× ${answer.status} ${answer.title}: ${answer.detail}` }));
        return;
      }
      const { user, repos } = answer;
      const facts = [
        ['Login', user.login], ['Name', user.name ?? '—'], ['Id', user.id],
        ['Repositories', repos.count], ['Stars', repos.stars], ['Top languages', repos.topLanguages.join(', ') || '—'],
      ];
      body.replaceChildren(el('div', { className: 'card' }, [
        el('img', { src: user.avatarUrl, alt: `Avatar of ${user.login}`, width: 64, height: 64 }),
        el('dl', {}, facts.flatMap(([term, value]) => [el('dt', { textContent: term }), el('dd', { textContent: String(value) })])),
      ]));
    } catch (error) {
      body.replaceChildren(el('p', { textContent: `× The profile could not be loaded: ${error.message}` }));
    }
  }

  $('users-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const params = {
      since: $('users-since').value || '0',
      limit: $('users-limit').value || '12',
      concurrency: $('users-concurrency').value || '4',
      onAvatarError: $('users-on-error').value,
    };
    loadColumn('serial', params);
    loadColumn('parallel', params);
  });

  applyKindFilter();
  connect();
})();
