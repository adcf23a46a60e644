// The help desk chat on any site: <script src="https://helpdesk.example/widget.js" defer></script>
// adds a "Chat with us" button that opens the chat page in an iframe from the help desk's own
// origin (its storage, its Content-Security-Policy). Styles are set through the DOM, so a host
// page's CSP without 'unsafe-inline' styles does not block them.
(function () {
  var script = document.currentScript;
  if (!script || !script.src) return;
  var origin = new URL(script.src).origin;
  var open = false;
  var frame;

  var button = document.createElement('button');
  button.type = 'button';
  button.id = 'helpdesk-widget-button';
  button.textContent = 'Chat with us';
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', 'helpdesk-widget-frame');
  Object.assign(button.style, {
    position: 'fixed',
    right: '16px',
    bottom: '16px',
    zIndex: '2147483646',
    padding: '12px 18px',
    border: '0',
    borderRadius: '999px',
    background: '#1d4ed8',
    color: '#ffffff',
    font: '600 15px system-ui, sans-serif',
    cursor: 'pointer',
    boxShadow: '0 4px 14px rgba(0, 0, 0, 0.25)',
  });

  function createFrame() {
    frame = document.createElement('iframe');
    frame.id = 'helpdesk-widget-frame';
    frame.title = 'Help desk chat';
    frame.src = origin + '/?embed=1';
    Object.assign(frame.style, {
      position: 'fixed',
      right: '16px',
      bottom: '72px',
      zIndex: '2147483647',
      width: 'min(400px, calc(100vw - 32px))',
      height: 'min(600px, calc(100vh - 96px))',
      border: '1px solid #c5ccd8',
      borderRadius: '12px',
      background: '#ffffff',
      boxShadow: '0 8px 28px rgba(0, 0, 0, 0.25)',
    });
    document.body.appendChild(frame);
  }

  button.addEventListener('click', function () {
    open = !open;
    if (open && !frame) createFrame();
    frame.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    button.textContent = open ? 'Close chat' : 'Chat with us';
    if (open) frame.focus();
  });

  function mount() {
    document.body.appendChild(button);
  }
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount);
})();
