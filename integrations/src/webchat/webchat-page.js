/*
 * The visitor's side of the web chat (docs/chat.md "Web chat"): plain DOM, no framework.
 * - POST /api/webchat/{channel}/session with the visitor key kept in localStorage: resumes
 *   the open conversation or shows the start form; the answer carries an anonymous token that
 *   reads only the visitor's room.
 * - /ws: subscriptions `rooms` {roomId} and `messages` {roomId}, resumed from their cursor
 *   after a reconnect; the token is renewed through the session call when it expires.
 * - Sends text and files with the visitor key (X-Visitor-Key); reports delivered / read.
 * Everything a person typed is shown with textContent, never as HTML.
 */
(function () {
  'use strict';
  var body = document.body;
  var channelId = body.getAttribute('data-channel');
  var T = JSON.parse(body.getAttribute('data-texts'));
  var LIMITS = JSON.parse(body.getAttribute('data-limits'));
  var storageKey = 'atendimento.webchat.' + channelId;
  var api = '/api/webchat/';

  var embedded = window.parent !== window;
  // A browser that blocks third-party storage (Chrome with third-party cookies off, Safari)
  // denies this frame its localStorage on a customer's site: the embed script then keeps the
  // visitor key in the site's storage for us (docs/webchat.md "Visitor key").
  var ownStorage = (function () { try { localStorage.setItem(storageKey + '.probe', '1'); localStorage.removeItem(storageKey + '.probe'); return true; } catch (e) { return false; } })();
  var state = { visitorKey: read(storageKey), roomId: null, token: null, room: null, messages: {}, pending: {}, receipts: {}, open: window.parent === window };
  var ws = null;
  var subs = {};
  var retry = 0;

  var $ = function (id) { return document.getElementById(id); };
  var list = $('messages');
  var form = $('start');
  var composer = $('composer');
  var closedBar = $('closed');
  var statusBar = $('status');

  function read(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }
  function write(key, value) {
    if (ownStorage) { try { localStorage.setItem(key, value); } catch (e) { /* full: the key lives in memory */ } return; }
    if (embedded) window.parent.postMessage({ atendimentoWebchat: 'key', visitorKey: value }, '*');
  }
  function newId() { return (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(36).slice(2)); }
  function show(el, visible) { el.hidden = !visible; }
  function notice(text) { statusBar.textContent = text || ''; show(statusBar, Boolean(text)); }

  function request(method, path, payload, headers) {
    var init = { method: method, headers: Object.assign({ Accept: 'application/json' }, headers || {}) };
    if (payload instanceof FormData) init.body = payload;
    else if (payload !== undefined) { init.body = JSON.stringify(payload); init.headers['Content-Type'] = 'application/json'; }
    return fetch(path, init).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (json) {
        if (!res.ok) { var err = new Error(json.errorMessage || T.failed); err.status = res.status; throw err; }
        return json;
      });
    });
  }

  function session(extra) {
    return request('POST', api + encodeURIComponent(channelId) + '/session', Object.assign({ visitorKey: state.visitorKey || undefined }, extra || {})).then(function (json) {
      var d = json.data;
      state.visitorKey = d.visitorKey;
      write(storageKey, d.visitorKey);
      $('title').textContent = d.channel.title;
      $('welcome').textContent = d.channel.welcome;
      document.documentElement.style.setProperty('--accent', d.channel.color);
      var changed = d.roomId !== state.roomId;
      state.roomId = d.roomId;
      state.token = d.accessToken;
      if (changed) { state.room = null; state.messages = {}; list.textContent = ''; subs = {}; }
      render();
      if (d.roomId) connect();
      return d;
    });
  }

  // ----- realtime -----
  function connect() {
    if (ws && ws.readyState === 1) { ws.send(JSON.stringify({ type: 'auth', token: state.token })); return; }
    if (ws) return; // still connecting: onopen sends the newest token
    ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
    ws.onopen = function () { ws.send(JSON.stringify({ type: 'auth', token: state.token })); };
    ws.onmessage = function (event) { onFrame(JSON.parse(event.data)); };
    ws.onclose = function (event) {
      ws = null;
      if (event.code === 4401 || event.code === 4403 || event.code === 4404) { notice(T.invalidSession); return; }
      if (!state.roomId) return;
      notice(T.connectionLost);
      var wait = Math.min(15000, 500 * Math.pow(2, retry++)) * (0.5 + Math.random() / 2);
      // A token that expired while away is renewed first.
      setTimeout(function () { session().catch(function () { connect(); }); }, wait);
    };
  }

  function subscribe(id, collection) {
    var sub = subs[id] || (subs[id] = { cursor: undefined, ids: [] });
    var frame = { type: 'subscribe', id: id, collection: collection, query: collection === 'messages' ? { roomId: state.roomId, limit: 50 } : { roomId: state.roomId } };
    if (sub.cursor !== undefined) { frame.cursor = sub.cursor; frame.ids = sub.ids; }
    ws.send(JSON.stringify(frame));
  }

  function onFrame(f) {
    if (f.type === 'ready') {
      retry = 0;
      notice('');
      // After a reconnect or a token renewal: resume from the cursors (no gaps, no duplicates).
      subscribe('room', 'rooms');
      subscribe('msgs', 'messages');
    } else if (f.type === 'auth.expiring') {
      session().catch(function () { notice(T.invalidSession); });
    } else if (f.type === 'snapshot' || f.type === 'changes') {
      var sub = subs[f.id];
      if (!sub) return;
      sub.cursor = f.cursor;
      var records = f.type === 'snapshot' ? f.records : f.added.concat(f.modified);
      if (f.id === 'room') {
        if (records[0]) state.room = records[0];
        render();
      } else {
        if (f.type === 'snapshot') state.messages = {};
        records.forEach(function (m) { state.messages[m.id] = m; });
        (f.removed || []).forEach(function (id) { delete state.messages[id]; });
        sub.ids = Object.keys(state.messages);
        renderMessages();
      }
    } else if (f.type === 'error' && f.id) {
      notice(f.errorMessage);
    }
  }

  // ----- rendering (textContent only) -----
  function render() {
    // A closed chat with a survey waiting (room.research) keeps the composer for the answer.
    var closed = Boolean(state.room && state.room.active === false && !state.room.research);
    show(form, !state.roomId);
    show(composer, Boolean(state.roomId) && !closed);
    show(closedBar, closed);
  }

  function mediaOf(m) {
    if (m.image && m.image.imageUrl) { var img = document.createElement('img'); img.src = m.image.imageUrl; img.alt = m.caption || ''; img.loading = 'lazy'; return img; }
    var url = (m.video && m.video.videoUrl) || (m.audio && m.audio.audioUrl);
    if (url) { var media = document.createElement(m.video ? 'video' : 'audio'); media.src = url; media.controls = true; media.preload = 'metadata'; return media; }
    if (m.document && m.document.documentUrl) {
      var a = document.createElement('a');
      a.href = m.document.documentUrl; a.textContent = m.document.fileName || T.attach; a.rel = 'noopener'; a.target = '_blank'; a.setAttribute('download', m.document.fileName || '');
      return a;
    }
    return null;
  }

  function statusText(m) {
    if (m.author.type !== 'client') return '';
    var s = m.status || {};
    return s.read ? T.read : s.delivered ? T.delivered : s.sent ? T.sent : T.sending;
  }

  function bubble(m) {
    var li = document.createElement('li');
    li.className = m.author.type === 'client' ? 'mine' : 'theirs';
    li.setAttribute('data-id', m.id);
    if (m.author.type !== 'client') { var who = document.createElement('div'); who.className = 'who'; who.textContent = m.author.displayName || ''; li.appendChild(who); }
    var media = mediaOf(m);
    if (media) li.appendChild(media);
    var text = m.text || m.caption;
    if (m.status && m.status.deleted) text = T.deleted;
    if (text) { var p = document.createElement('p'); p.textContent = text; li.appendChild(p); }
    var meta = document.createElement('div');
    meta.className = 'meta';
    var at = new Date(m.lifeControl.createdAt);
    meta.textContent = at.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' }) + (statusText(m) ? ' · ' + statusText(m) : '');
    li.appendChild(meta);
    return li;
  }

  function renderMessages() {
    var all = Object.keys(state.messages).map(function (id) { return state.messages[id]; });
    all.sort(function (a, b) { return a.lifeControl.createdAt < b.lifeControl.createdAt ? -1 : a.lifeControl.createdAt > b.lifeControl.createdAt ? 1 : a.id < b.id ? -1 : 1; });
    var atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.textContent = '';
    all.forEach(function (m) {
      if (m.messageExtId) Object.keys(state.pending).forEach(function (k) { if (m.messageExtId.slice(-k.length) === k) { delete state.pending[k]; } });
      list.appendChild(bubble(m));
    });
    Object.keys(state.pending).forEach(function (k) { list.appendChild(bubble(state.pending[k])); });
    if (atBottom || all.length) list.scrollTop = list.scrollHeight;
    sendReceipts();
  }

  function sendReceipts() {
    if (!state.roomId || !state.visitorKey) return;
    var visible = state.open && document.visibilityState === 'visible';
    var read = [], delivered = [];
    Object.keys(state.messages).forEach(function (id) {
      var m = state.messages[id];
      if (m.author.type === 'client' || (m.status && m.status.read)) return;
      var want = visible ? 'read' : 'delivered';
      if (state.receipts[id] === want || state.receipts[id] === 'read') return;
      if (want === 'delivered' && m.status && m.status.delivered) return;
      state.receipts[id] = want;
      (visible ? read : delivered).push(id);
    });
    if (read.length || delivered.length) {
      request('POST', api + 'rooms/' + encodeURIComponent(state.roomId) + '/receipts', { read: read, delivered: delivered }, { 'X-Visitor-Key': state.visitorKey }).catch(function () {
        read.concat(delivered).forEach(function (id) { delete state.receipts[id]; });
      });
    }
  }

  // ----- sending -----
  function sendText(text) {
    var clientId = newId();
    state.pending[clientId] = { id: 'pending-' + clientId, author: { type: 'client' }, text: text, status: null, lifeControl: { createdAt: new Date().toISOString() } };
    renderMessages();
    return request('POST', api + 'rooms/' + encodeURIComponent(state.roomId) + '/message', { text: text, clientId: clientId }, { 'X-Visitor-Key': state.visitorKey })
      .catch(function (err) {
        state.pending[clientId].status = { failed: true };
        state.pending[clientId].text = text + ' (' + err.message + ')';
        renderMessages();
      });
  }

  function kindOf(file) {
    var type = file.type || '';
    if (/^image\/(jpeg|png|gif|webp)$/.test(type)) return 'image';
    if (type.indexOf('video/') === 0) return 'video';
    if (type.indexOf('audio/') === 0) return 'audio';
    return 'document';
  }

  function sendFile(file) {
    var kind = kindOf(file);
    if (file.size > LIMITS[kind]) { notice(kind === 'image' ? T.uploadImage5 : kind === 'document' ? T.uploadAny100 : T.uploadMedia16); return; }
    var data = new FormData();
    var clientId = newId();
    data.append('type', kind);
    data.append('clientId', clientId);
    data.append('file', file, file.name);
    notice(T.sending);
    request('POST', api + 'rooms/' + encodeURIComponent(state.roomId) + '/message/file?type=' + kind, data, { 'X-Visitor-Key': state.visitorKey })
      .then(function () { notice(''); })
      .catch(function (err) { notice(err.message); });
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var text = $('first').value.trim();
    if (!text) return;
    $('start-send').disabled = true;
    session({ text: text, displayName: $('name').value.trim() || undefined, email: $('email').value.trim() || undefined, clientId: newId() })
      .then(function () { $('first').value = ''; })
      .catch(function (err) { notice(err.message); })
      .then(function () { $('start-send').disabled = false; });
  });
  composer.addEventListener('submit', function (event) {
    event.preventDefault();
    var input = $('text');
    var text = input.value.trim();
    if (!text) return;
    if (text.length > LIMITS.text) { notice(T.tooLong); return; }
    input.value = '';
    sendText(text);
  });
  $('text').addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey) { event.preventDefault(); composer.requestSubmit(); }
  });
  $('file').addEventListener('change', function (event) {
    var file = event.target.files && event.target.files[0];
    if (file) sendFile(file);
    event.target.value = '';
  });
  $('restart').addEventListener('click', function () {
    state.roomId = null; state.room = null; state.messages = {}; list.textContent = '';
    if (ws) { var old = ws; ws = null; old.onclose = null; old.close(); }
    subs = {};
    render();
  });
  document.addEventListener('visibilitychange', sendReceipts);
  function start() { session().catch(function (err) { notice(err.status === 404 ? T.channelUnavailable : err.message); }); }
  // Without storage of our own, the first answer of the embed script carries the key it kept;
  // an embed script that keeps none (or is not there) is waited for 1.5 s at most.
  var awaitingKey = embedded && !ownStorage;
  var keyTimer = awaitingKey ? setTimeout(function () { awaitingKey = false; start(); }, 1500) : null;
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || !event.data || !event.data.atendimentoWebchat) return;
    state.open = event.data.atendimentoWebchat === 'open';
    if (awaitingKey) {
      awaitingKey = false;
      clearTimeout(keyTimer);
      if (typeof event.data.visitorKey === 'string' && !state.visitorKey) state.visitorKey = event.data.visitorKey;
      start();
    }
    sendReceipts();
  });
  if (embedded) window.parent.postMessage({ atendimentoWebchat: 'ready' }, '*');
  if (!awaitingKey) start();
})();
