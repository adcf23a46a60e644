/**
 * `localStorage` or `sessionStorage`, or a stand-in for this page's life when the browser refuses
 * it (a widget in a third-party frame with storage blocked throws on access): the chat still
 * works, it only forgets on reload.
 */
export function webStorage(name) {
  try {
    const storage = window[name];
    storage.setItem('helpdesk.probe', '1');
    storage.removeItem('helpdesk.probe');
    return storage;
  } catch {
    const kept = new Map();
    return {
      getItem: (key) => kept.get(key) ?? null,
      setItem: (key, value) => kept.set(key, String(value)),
      removeItem: (key) => kept.delete(key),
    };
  }
}
