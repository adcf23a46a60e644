/**
 * Builds an element. Children that are strings become text nodes, and props are set as
 * attributes or listeners, never as markup: text from emails and drafts cannot turn into HTML.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'innerHTML' || name === 'outerHTML' || name === 'style')
      throw new Error(`h(): ${name} is not allowed`);
    if (name === 'class') element.className = value;
    else if (name === 'text') element.textContent = value;
    else if (name === 'value') element.value = value;
    else if (name.startsWith('on') && typeof value === 'function')
      element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child);
  }
  return element;
}

export function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element;
}
