import { byId } from './dom.js';
import { storeToken } from './token.js';

const DEFAULT_REASON = 'This service asks for an API token. It is kept only for this browser tab.';

/** Shows the token dialog and resolves once the reviewer has entered a token (stored by then). */
export function askForToken(reason) {
  const dialog = byId('token-dialog');
  const form = byId('token-form');
  const input = byId('token-input');
  byId('token-reason').textContent = reason ?? DEFAULT_REASON;
  input.value = '';
  return new Promise((resolve) => {
    const onSubmit = (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (!token) return;
      storeToken(token);
      form.removeEventListener('submit', onSubmit);
      dialog.removeEventListener('cancel', onCancel);
      dialog.close();
      resolve();
    };
    // Without a token nothing on the page works, so Escape does not dismiss the dialog.
    const onCancel = (event) => event.preventDefault();
    form.addEventListener('submit', onSubmit);
    dialog.addEventListener('cancel', onCancel);
    if (!dialog.open) dialog.showModal();
    input.focus();
  });
}
