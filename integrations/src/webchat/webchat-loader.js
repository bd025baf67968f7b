/*
 * Embed script of the web-chat widget (docs/chat.md "Web chat"). A site adds
 *   <script src="https://{our host}/api/webchat/{channelId}/widget.js" async></script>
 * and gets a round button in the bottom-right corner that opens our hosted page in an
 * iframe. Nothing of the conversation runs in the site's page: the iframe is our origin,
 * so the token and the messages never touch the site's DOM or scripts. The visitor key
 * does only where the browser blocks the iframe's own storage (kept here, see below).
 * The server appends the call with the channel's settings: `(function (cfg) {...})(cfg);`.
 */
(function (cfg) {
  if (window.__atendimentoWebchat) return;
  window.__atendimentoWebchat = true;
  var script = document.currentScript;
  var pageUrl = new URL('page', script && script.src ? script.src : location.href).toString();
  var frame = null;
  var open = false;
  // Until our page says 'ready' the frame holds about:blank (the site's origin): a message then
  // is refused with a console error, and the 'ready' answer below tells the page anyway.
  var ready = false;
  // The visitor key, kept here (the site's storage) for a page whose own storage the browser
  // blocks as third-party; the page sends it only then (docs/webchat.md "Visitor key").
  var keyName = 'atendimento.webchat.' + pageUrl;
  function keptKey() { try { return localStorage.getItem(keyName); } catch (e) { return null; } }

  var button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('aria-label', cfg.openLabel);
  button.title = cfg.openLabel;
  // An SVG bubble, not an emoji: many systems (kiosks, Linux) have no emoji font.
  var svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24'); svg.setAttribute('width', '28'); svg.setAttribute('height', '28'); svg.setAttribute('aria-hidden', 'true');
  var path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z');
  svg.appendChild(path);
  button.appendChild(svg);
  var b = button.style;
  b.position = 'fixed'; b.right = '20px'; b.bottom = '20px'; b.width = '56px'; b.height = '56px';
  b.borderRadius = '50%'; b.border = '0'; b.cursor = 'pointer'; b.padding = '0';
  b.display = 'flex'; b.alignItems = 'center'; b.justifyContent = 'center';
  b.background = cfg.color; b.color = '#fff'; b.boxShadow = '0 2px 8px rgba(0,0,0,.3)'; b.zIndex = '2147483000';

  function toggle() {
    open = !open;
    if (!frame) {
      frame = document.createElement('iframe');
      frame.src = pageUrl;
      frame.title = cfg.title;
      frame.setAttribute('allow', 'clipboard-write');
      var f = frame.style;
      f.position = 'fixed'; f.right = '20px'; f.bottom = '88px'; f.width = '360px'; f.height = '520px';
      f.maxWidth = 'calc(100vw - 40px)'; f.maxHeight = 'calc(100vh - 108px)'; f.border = '0';
      f.borderRadius = '12px'; f.boxShadow = '0 4px 24px rgba(0,0,0,.25)'; f.background = '#fff'; f.zIndex = '2147483000';
      document.body.appendChild(frame);
    }
    frame.style.display = open ? 'block' : 'none';
    button.setAttribute('aria-label', open ? cfg.closeLabel : cfg.openLabel);
    button.title = open ? cfg.closeLabel : cfg.openLabel;
    // The page marks agent messages read only while the visitor can see them.
    if (ready && frame.contentWindow) frame.contentWindow.postMessage({ atendimentoWebchat: open ? 'open' : 'close' }, new URL(pageUrl).origin);
  }
  button.addEventListener('click', toggle);
  window.addEventListener('message', function (event) {
    if (!frame || event.source !== frame.contentWindow || !event.data || event.origin !== new URL(pageUrl).origin) return;
    if (event.data.atendimentoWebchat === 'ready') {
      ready = true;
      frame.contentWindow.postMessage({ atendimentoWebchat: open ? 'open' : 'close', visitorKey: keptKey() }, event.origin);
    } else if (event.data.atendimentoWebchat === 'key' && typeof event.data.visitorKey === 'string') {
      try { localStorage.setItem(keyName, event.data.visitorKey); } catch (e) { /* the key lives in the page's memory */ }
    }
  });
  if (document.body) document.body.appendChild(button);
  else document.addEventListener('DOMContentLoaded', function () { document.body.appendChild(button); });
})
