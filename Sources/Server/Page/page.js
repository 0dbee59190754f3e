// The page of StreamService: a live marble diagram of /events and the users
// browser over /users/stream. Plain script, no library, no build step.
'use strict';

(() => {
  const KINDS = ['subscribe', 'data', 'error', 'retry', 'end', 'dispose'];
  // Older runs are dropped beyond this many, so a long-open page stays light.
  const MAX_RUNS = 40;
  // A run shorter than this still spreads its marbles over the lane.
  const MIN_SPAN_MS = 20;

  const $ = (id) => document.getElementById(id);
  const el = (tag, props = {}, children = []) => {
    const node = Object.assign(document.createElement(tag), props);
    for (const child of children) node.append(child);
    return node;
  };

  // ---- Pipeline events -------------------------------------------------

  const lanesBox = $('lanes');
  const runs = new Map(); // requestId → run
  const queued = [];
  let paused = false;
  let lastEventId = null;
  let source = null;

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

  function connect() {
    source = new EventSource('/events');
    source.addEventListener('open', () => {
      setStatus('open', lastEventId
        ? `Connected to /events — resumed after event ${lastEventId}.`
        : 'Connected to /events — live.');
    });
    source.addEventListener('error', (event) => {
      if (event instanceof MessageEvent) { onPipelineEvent(event); return; }
      if (source.readyState === EventSource.CLOSED) {
        // The browser gave up (e.g. the server answered something other than an event stream).
        setStatus('reconnecting', 'The feed closed; connecting again in 3 s…');
        setTimeout(connect, 3000);
      } else {
        setStatus('reconnecting', lastEventId
          ? `Connection lost; reconnecting, to resume after event ${lastEventId}…`
          : 'Connection lost; reconnecting…');
      }
    });
    for (const kind of KINDS) if (kind !== 'error') source.addEventListener(kind, onPipelineEvent);
    source.addEventListener('reset', onReset);
    source.addEventListener('shutdown', () => setStatus('reconnecting', 'The server is shutting down; the browser will reconnect.'));
  }

  function onPipelineEvent(message) {
    lastEventId = message.lastEventId || lastEventId;
    let event;
    try { event = JSON.parse(message.data); } catch { return; }
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
    const missed = lastEventId ? `after event ${lastEventId}` : 'before this connection';
    lastEventId = message.lastEventId || lastEventId;
    showNotice(`Reset: the server no longer has the events ${missed} (it restarted, or they left its replay buffer); ` +
      `the oldest it still has is ${oldest}. Events from there on follow.`);
    for (const run of runs.values()) {
      for (const track of run.lanes.values()) {
        track.append(el('span', { className: 'reset-mark', title: 'reset' }));
        track.lastChild.style.left = '100%';
      }
    }
  }

  function runFor(event, time) {
    let run = runs.get(event.requestId);
    if (run) return run;
    const lanes = el('div', { className: 'run-lanes' });
    const rows = el('tbody');
    const title = el('h3', { textContent: event.pipeline });
    const info = el('p');
    const log = el('details', {}, [
      el('summary', { textContent: 'Event log' }),
      el('table', {}, [
        el('thead', {}, [el('tr', {}, ['id', 'ms', 'stage', 'kind', 'detail'].map((h) => el('th', { scope: 'col', textContent: h })))]),
        rows,
      ]),
    ]);
    const article = el('article', { className: 'run' }, [el('header', {}, [title, info]), lanes, log]);
    article.dataset.pipeline = event.pipeline;
    article.dataset.requestId = event.requestId;
    run = { article, lanes: new Map(), lanesBox: lanes, rows, info, start: time, span: MIN_SPAN_MS, counts: {}, events: 0, requestId: event.requestId };
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
    const t = Math.max(0, time - run.start);
    if (t > run.span) {
      run.span = t;
    }
    run.article.style.setProperty('--span', String(run.span));
    const track = laneFor(run, event.stage);
    const label = `${event.kind} at +${t} ms${event.detail ? ': ' + event.detail : ''}`;
    const marble = el('span', { className: `marble ${event.kind}`, title: `${event.stage} — ${label}` });
    marble.style.setProperty('--t', String(t));
    marble.dataset.kind = event.kind;
    track.append(marble);
    track.counts[event.kind] = (track.counts[event.kind] || 0) + 1;
    track.setAttribute('aria-label', `Stage ${event.stage}: ` +
      KINDS.filter((k) => track.counts[k]).map((k) => `${track.counts[k]} ${k}`).join(', '));
    run.counts[event.kind] = (run.counts[event.kind] || 0) + 1;
    run.events += 1;
    const outcome = run.counts.error ? ` · ${run.counts.error} error${run.counts.error > 1 ? 's' : ''}` : '';
    const retries = run.counts.retry ? ` · ${run.counts.retry} retr${run.counts.retry > 1 ? 'ies' : 'y'}` : '';
    run.info.textContent = `request ${run.requestId} · ${run.events} events over ${t > 0 ? run.span : 0} ms${outcome}${retries}`;
    run.rows.append(el('tr', {}, [event.id, t, event.stage, event.kind, event.detail || ''].map((v) => el('td', { textContent: String(v) }))));
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

  $('filter-pipeline').addEventListener('change', () => { for (const run of runs.values()) applyPipelineFilter(run); });
  for (const box of document.querySelectorAll('input[name=kind]')) box.addEventListener('change', applyKindFilter);
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
    feeds[mode]?.close();
    const list = $(`${mode}-users`);
    const summary = $(`${mode}-summary`);
    list.replaceChildren();
    summary.textContent = 'Loading…';
    const query = new URLSearchParams({ ...params, avatars: mode, embed: 'data-uri' });
    const started = performance.now();
    let landed = 0;
    const feed = new EventSource(`/users/stream?${query}`);
    feeds[mode] = feed;
    const elapsed = () => Math.round(performance.now() - started);
    feed.addEventListener('user', (message) => {
      const user = JSON.parse(message.data);
      landed += 1;
      list.append(el('li', {}, [userButton(user, landed, elapsed())]));
      summary.textContent = `${landed} landed after ${elapsed()} ms…`;
    });
    feed.addEventListener('error', (message) => {
      if (!(message instanceof MessageEvent)) {
        // The connection failed before `end`: stop, or EventSource would start the run again.
        feed.close();
        summary.textContent = `The stream failed after ${elapsed()} ms.`;
        return;
      }
      const failure = JSON.parse(message.data);
      list.append(el('li', {}, [failedUser(failure)]));
    });
    feed.addEventListener('end', (message) => {
      feed.close();
      const result = JSON.parse(message.data);
      summary.textContent = `${result.users} users, ${result.errors} errors — ${result.elapsedMs} ms on the server, ${elapsed()} ms here.`;
    });
    feed.addEventListener('shutdown', () => { feed.close(); summary.textContent = 'The server shut down mid-stream.'; });
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
