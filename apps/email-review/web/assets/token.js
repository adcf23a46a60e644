// sessionStorage: the token lives only as long as this tab, as the issue asks.
const KEY = 'email-review.api-token';

export function readToken() {
  return sessionStorage.getItem(KEY) ?? '';
}

export function storeToken(token) {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken() {
  sessionStorage.removeItem(KEY);
}
