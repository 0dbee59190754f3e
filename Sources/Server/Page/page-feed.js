// The page's one connection to /events, shared by every tab of the page.
//
// Over plain HTTP/1.1 a browser opens at most six connections per origin, and an
// EventSource holds one for as long as the tab is open: with one feed per tab the
// seventh tab of `/` hung, and so did every fetch of the tabs before it. So this
// script runs in two places:
// - as a SharedWorker (`new SharedWorker('/page-feed.js')`): it holds the only
//   EventSource of all the tabs and posts each message to every tab's port. The
//   browser keeps it alive while one tab is left, so no tab has to hand the
//   connection over when another closes, and the EventSource's own reconnects
//   resume with Last-Event-ID as before;
// - as a plain script in a tab, where it only declares `openEventFeed`: the
//   tab calls it where SharedWorker is missing, for a feed of its own.
// Tabs filter what they draw themselves, so the feed is /events unfiltered.
'use strict';

// Opens /events and calls `post` with one message per thing a tab shows:
// {type:'status', state:'open'|'reconnecting'|'closed'|'shutdown', resumedAfter?},
// {type:'event', kind, id, data} and {type:'reset', id, data}.
function openEventFeed(post) {
  const KINDS = ['subscribe', 'data', 'error', 'retry', 'end', 'dispose'];
  // A closed EventSource (the server answered something other than an event stream) is retried after this.
  const RETRY_CLOSED_MS = 3000;
  let lastEventId = null;

  function connect() {
    const source = new EventSource('/events');
    source.addEventListener('open', () => post({ type: 'status', state: 'open', resumedAfter: lastEventId }));
    const forward = (message) => {
      lastEventId = message.lastEventId || lastEventId;
      post({ type: 'event', kind: message.type, id: message.lastEventId, data: message.data });
    };
    source.addEventListener('error', (event) => {
      if (event instanceof MessageEvent) { forward(event); return; }
      if (source.readyState === EventSource.CLOSED) {
        post({ type: 'status', state: 'closed' });
        setTimeout(connect, RETRY_CLOSED_MS);
      } else {
        post({ type: 'status', state: 'reconnecting', resumedAfter: lastEventId });
      }
    });
    for (const kind of KINDS) if (kind !== 'error') source.addEventListener(kind, forward);
    source.addEventListener('reset', (message) => {
      post({ type: 'reset', id: message.lastEventId, data: message.data, missedAfter: lastEventId });
      lastEventId = message.lastEventId || lastEventId;
    });
    source.addEventListener('shutdown', () => post({ type: 'status', state: 'shutdown' }));
  }

  connect();
}

if (typeof SharedWorkerGlobalScope === 'function' && self instanceof SharedWorkerGlobalScope) {
  const ports = new Set();
  // The feed's current state, which a tab that joins late is told first (without the resume,
  // which happened before its time).
  let status = { type: 'status', state: 'connecting' };
  const greet = (port) => port.postMessage(status.state === 'open' ? { type: 'status', state: 'open' } : status);
  let started = false;
  const broadcast = (message) => {
    if (message.type === 'status') status = message;
    for (const port of ports) port.postMessage(message);
  };
  self.addEventListener('connect', (event) => {
    const port = event.ports[0];
    ports.add(port);
    // A tab says goodbye when it is hidden for good or put in the back/forward cache, so the worker
    // stops posting to it, and hello again when it comes back from that cache.
    port.addEventListener('message', (message) => {
      if (message.data?.type === 'leave') ports.delete(port);
      if (message.data?.type === 'join') { ports.add(port); greet(port); }
    });
    port.start();
    greet(port);
    if (!started) {
      started = true;
      openEventFeed(broadcast);
    }
  });
}
