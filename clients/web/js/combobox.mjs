// A type-ahead picker for a form field (the link form's other task): an input with role combobox
// and a listbox of the matches (ARIA combobox pattern), the chosen id in a hidden input of the
// field's name (forms.mjs reads it like any other). Typing lists the matches of `field.search`
// (task-picker.mjs); ↓/↑ move through them, Enter picks one (and with the list closed saves the
// form), Escape closes the list first and the form only then, Tab leaves. Loaded with the forms,
// after the first render: its words and its styles (combobox.css) come with it.

import { h } from './dom.mjs';

document.head.append(h('link', { rel: 'stylesheet', href: 'combobox.css' }));

const WORDS = {
  en: { typeToFind: 'Type a title or id', none: 'No task matches.', more: (n) => `The first ${n} matches: type more to narrow them.`,
    count: (n) => (n === 1 ? '1 match' : `${n} matches`) },
  de: { typeToFind: 'Titel oder Kennung eingeben', none: 'Keine Aufgabe passt.', more: (n) => `Die ersten ${n} Treffer: weiter tippen, um einzugrenzen.`,
    count: (n) => (n === 1 ? '1 Treffer' : `${n} Treffer`) },
};

/**
 * The field's nodes after its label: `field` { name, value, search(text) → { matches, more },
 * exact(text) → task|null, prepare() (makes what search needs) }.
 */
export function comboboxNode(id, field, language) {
  const words = WORDS[language] ?? WORDS.en;
  const input = h('input', { id, type: 'text', role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false',
    'aria-controls': `${id}-list`, autocomplete: 'off', spellcheck: 'false', placeholder: words.typeToFind, value: field.text ?? '' });
  const chosen = h('input', { type: 'hidden', name: field.name, value: field.value ?? '' });
  const list = h('ul', { id: `${id}-list`, role: 'listbox', hidden: true });
  const note = h('div', { class: 'combobox-note', 'aria-live': 'polite' });
  const box = new Combobox(input, chosen, list, note, field, words);
  input.addEventListener('input', () => box.typed());
  input.addEventListener('keydown', (event) => box.key(event));
  input.addEventListener('blur', () => box.close());
  list.addEventListener('mousedown', (event) => event.preventDefault()); // keeps the focus in the input
  list.addEventListener('click', (event) => {
    const option = event.target.closest('[role=option]');
    if (option) box.pick(Number(option.dataset.index));
  });
  // The index is made once the form is on screen (the browser idle), before the first key is likely typed.
  (window.requestIdleCallback ?? setTimeout)(() => field.prepare?.());
  return h('div', { class: 'combobox' }, input, chosen, list, note);
}

class Combobox {
  constructor(input, chosen, list, note, field, words) {
    Object.assign(this, { input, chosen, list, note, field, words, matches: [], active: -1 });
  }

  get isOpen() {
    return !this.list.hidden;
  }

  typed() {
    this.chosen.value = this.field.exact(this.input.value)?.id ?? '';
    this.show();
  }

  show() {
    const { matches, more } = this.field.search(this.input.value);
    this.matches = matches;
    this.list.replaceChildren(...matches.map(({ task }, index) => h('li', {
      id: `${this.input.id}-option-${index}`, role: 'option', 'aria-selected': 'false', dataset: { index: String(index), id: task.id },
    }, h('span', { text: task.title }), h('small', { text: task.id }))));
    this.list.hidden = matches.length === 0;
    this.input.setAttribute('aria-expanded', String(matches.length > 0));
    this.note.textContent = matches.length === 0 ? this.words.none : more ? this.words.more(matches.length) : this.words.count(matches.length);
    this.activate(matches.length > 0 ? 0 : -1);
  }

  activate(index) {
    this.list.children[this.active]?.setAttribute('aria-selected', 'false');
    this.active = index;
    const option = this.list.children[index];
    if (!option) return this.input.removeAttribute('aria-activedescendant');
    option.setAttribute('aria-selected', 'true');
    this.input.setAttribute('aria-activedescendant', option.id);
    option.scrollIntoView({ block: 'nearest' });
  }

  pick(index) {
    const match = this.matches[index];
    if (!match) return;
    this.chosen.value = match.task.id;
    this.input.value = match.task.title;
    this.close();
    this.note.textContent = match.task.id;
  }

  close() {
    this.list.hidden = true;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
    this.active = -1;
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing || this.input.readOnly) return;
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (step && !this.isOpen) this.show();
    else if (step) this.activate((this.active + step + this.matches.length) % this.matches.length);
    else if (event.key === 'Enter' && this.isOpen && this.active >= 0) this.pick(this.active);
    else if (event.key === 'Escape' && this.isOpen) this.close();
    else {
      if (event.key === 'Tab') this.close();
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  }
}
