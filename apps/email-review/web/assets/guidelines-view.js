import { api } from './api.js';
import { byId, h } from './dom.js';
import { humanize } from './format.js';

/** Guidelines removed from this page: a re-rendered draft still lists them, marked removed. */
const removed = new Set();

const scopeText = (scope) =>
  scope.kind === 'global' ? 'Everyone' : `${humanize(scope.kind)}: ${scope.value}`;

/** Where a guideline came from: the reviewer actions, their threads (kept after retention deletes them). */
function provenance(guideline) {
  const threads = [...new Set(guideline.sources.map((s) => s.thread_id))];
  const reviewers = [...new Set(guideline.sources.map((s) => s.actor))];
  const kinds = guideline.sources.map((s) => (s.kind === 'edited' ? 'edit' : 'instructions'));
  return `Learned from ${kinds.length} reviewer ${kinds.length === 1 ? 'action' : 'actions'} by ${reviewers.join(', ')} on threads ${threads.join(', ')}`;
}

async function removeGuideline(id, item, announce) {
  const button = item.querySelector('button.remove-guideline');
  if (button) button.disabled = true;
  try {
    await api.deleteGuideline(id);
  } catch (error) {
    // Already gone (another reviewer removed it): the outcome the reviewer asked for.
    if (error.status !== 404) {
      if (button) button.disabled = false;
      announce(`The guideline could not be removed: ${error.message}`);
      return;
    }
  }
  removed.add(id);
  item.classList.add('guideline-removed');
  item
    .querySelector('.guideline-state')
    ?.replaceChildren('Removed: later drafts are not given it.');
  button?.remove();
  announce('Guideline removed.');
}

function announcer() {
  return (text) => {
    const element = document.getElementById('announcer');
    if (element) element.textContent = text;
  };
}

/** Beside a draft: the reviewer guidelines its prompt carried, each removable in one action. */
export function shapedBy(guidelines) {
  const announce = announcer();
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'shaped-by-title', id: 'shaped-by' },
    h('h3', {
      id: 'shaped-by-title',
      class: 'card-title',
      text: 'Guidelines that shaped this draft',
    }),
    h(
      'ul',
      { class: 'guideline-list' },
      ...guidelines.map((guideline) => {
        const gone = removed.has(guideline.id);
        const item = h(
          'li',
          {
            class: `guideline${gone ? ' guideline-removed' : ''}`,
            'data-guideline-id': guideline.id,
          },
          h('p', { class: 'guideline-rule', text: guideline.rule }),
          h('p', {
            class: 'guideline-state muted',
            text: gone ? 'Removed: later drafts are not given it.' : '',
          }),
        );
        if (!gone)
          item.append(
            h('button', {
              type: 'button',
              class: 'button ghost remove-guideline',
              text: 'Remove guideline',
              'aria-label': `Remove guideline: ${guideline.rule}`,
              onclick: () => void removeGuideline(guideline.id, item, announce),
            }),
          );
        return item;
      }),
    ),
  );
}

const percent = (share) => (share === null ? '—' : `${Math.round(share * 100)} %`);
const decimal = (value) => (value === null ? '—' : value.toFixed(2));

function qualityFigures(quality) {
  const o = quality.overall;
  return h(
    'div',
    { class: 'quality', id: 'quality-figures' },
    h('h3', { class: 'card-title', text: 'Draft quality' }),
    h(
      'dl',
      { class: 'quality-figures' },
      h('dt', { text: 'Approved unedited' }),
      h('dd', { 'data-figure': 'unedited_share', text: percent(o.unedited_share) }),
      h('dt', { text: 'Mean edit distance' }),
      h('dd', { 'data-figure': 'edit_distance', text: decimal(o.edit_distance.mean) }),
      h('dt', { text: 'Approved / rejected' }),
      h('dd', { 'data-figure': 'decided', text: `${o.approved} / ${o.rejected}` }),
    ),
    o.reject_reasons.length > 0 &&
      h(
        'ul',
        { class: 'reject-reasons' },
        ...o.reject_reasons.map((r) =>
          h('li', { text: `${humanize(r.reason)}: ${r.count} (${r.thread_ids.join(', ')})` }),
        ),
      ),
  );
}

function guidelineItem(guideline, reload, announce) {
  const item = h(
    'li',
    {
      class: `guideline${guideline.enabled ? '' : ' guideline-disabled'}`,
      'data-guideline-id': guideline.id,
    },
    h('p', { class: 'guideline-rule', text: guideline.rule }),
    h('p', {
      class: 'guideline-scope muted',
      text: `${scopeText(guideline.scope)}${guideline.enabled ? '' : ' · disabled'}`,
    }),
    h('p', { class: 'guideline-provenance muted', text: provenance(guideline) }),
    h('p', { class: 'guideline-state muted' }),
  );
  const toggle = h('button', {
    type: 'button',
    class: 'button ghost',
    text: guideline.enabled ? 'Disable' : 'Enable',
    onclick: async () => {
      toggle.disabled = true;
      await api.updateGuideline(guideline.id, { enabled: !guideline.enabled }).catch((error) => {
        announce(`The guideline could not be changed: ${error.message}`);
      });
      await reload();
    },
  });
  item.append(
    toggle,
    h('button', {
      type: 'button',
      class: 'button ghost remove-guideline',
      text: 'Delete',
      'aria-label': `Delete guideline: ${guideline.rule}`,
      onclick: () => void removeGuideline(guideline.id, item, announce),
    }),
  );
  return item;
}

/**
 * The learning panel (#learning in the inbox): the quality figures and every learned guideline with
 * its scope and provenance; loaded when opened and on each reopening. All of it as text.
 */
export function mountLearningPanel() {
  const panel = document.getElementById('learning');
  if (!panel) return;
  const body = byId('learning-body');
  const announce = announcer();
  const reload = async () => {
    try {
      const [quality, listed] = await Promise.all([api.getQuality(), api.listGuidelines()]);
      body.replaceChildren(
        qualityFigures(quality),
        h('h3', { class: 'card-title', text: 'Learned guidelines' }),
        listed.guidelines.length === 0
          ? h('p', { class: 'muted', text: 'Nothing learned yet.' })
          : h(
              'ul',
              { class: 'guideline-list', id: 'learned-guidelines' },
              ...listed.guidelines.map((g) => guidelineItem(g, reload, announce)),
            ),
      );
    } catch (error) {
      body.replaceChildren(
        h('p', { role: 'alert', class: 'notice notice-error', text: error.message }),
      );
    }
  };
  panel.addEventListener('toggle', () => {
    if (panel.open) void reload();
  });
}
