// The form dialog: renders a form description (task-forms.mjs, entry-forms.mjs) with explicit Save
// and Close, and keeps it open until the server answers. While a proposal waits, Save says
// "Saving…" ("Queued (offline)" while it waits unsent); a rejection shows its reason in words and
// keeps every value of the draft; an ack closes it. Close (or Escape) closes without proposing
// anything (a proposal already sent stays pending and its answer appears in the status line). After
// a rejection a form may offer one more way to save (a scheduleConflict's "Move to …"), or one
// instead of Save, with Close become Discard (a stale proposal's "Apply mine to the current version").
// A form whose role ended says so and can no longer be saved.

import { h, $ } from './dom.mjs';

export class FormDialog {
  constructor(dialog) {
    this.dialog = dialog;
    this.form = null;
    this.saving = null;
    /** Whether the proposal `id` waits unsent, and the version the page holds (the page sets them). */
    this.isQueued = () => false;
    this.version = () => 0;
    this.fields = $('#form-fields', dialog);
    $('#form', dialog).addEventListener('submit', (event) => {
      event.preventDefault();
      this.save();
    });
    $('#form-close', dialog).addEventListener('click', () => this.close());
    this.offerButton = $('#form-offer', dialog);
    this.offerButton.addEventListener('click', () => {
      if (this.form && !this.saving && this.offered) this.sent(this.offered());
    });
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      this.close();
    });
    dialog.addEventListener('keydown', (event) => {
      // Enter saves from a dropdown as from a text field (a browser submits a form only from the latter).
      if (event.key === 'Enter' && event.target.tagName === 'SELECT' && !event.shiftKey && !event.altKey
        && !event.ctrlKey && !event.metaKey && !event.isComposing) {
        event.preventDefault();
        if (!this.readOnly) this.save();
        return;
      }
      // A read-only form (an entry's details) may take keys: its actions.
      if (!this.onKey || event.target.closest('input, select') || event.ctrlKey || event.metaKey) return;
      if (this.onKey(event.key)) event.preventDefault();
    });
  }

  get isOpen() {
    return this.dialog.open;
  }

  /**
   * Shows `form`; `onSave(values)` returns { error } or { id } (the proposal sent); `readOnly`: no
   * Save; `onKey(key)` (read-only forms) may act on a key and returns whether it did.
   */
  open(form, t, onSave, readOnly = false, onKey = null) {
    form.seenAt = this.version(); // its values are as of this version (a conflict says what changed since)
    this.form = form;
    this.t = t;
    this.onSave = onSave;
    this.onKey = onKey;
    this.readOnly = readOnly;
    this.saving = null;
    this.offer(null);
    const heading = $('#form-heading', this.dialog);
    heading.textContent = form.heading;
    heading.title = form.heading; // a long one is cut short with an ellipsis (app.css)
    $('#form-note', this.dialog).textContent = form.note ?? '';
    this.setError('');
    this.fields.replaceChildren();
    form.fields.forEach((field, index) => this.fields.append(...this.fieldNodes(field, `field-${index}`)));
    const save = $('#form-save', this.dialog);
    save.textContent = t.save;
    save.disabled = false;
    save.hidden = readOnly;
    $('#form-close', this.dialog).textContent = t.close;
    if (!this.dialog.open) this.dialog.showModal();
    const first = this.fields.querySelector('input, select');
    (first ?? save).focus();
  }

  fieldNodes(field, id) {
    if (field.type === 'checkboxes') {
      const chosen = new Set(field.value);
      return [h('fieldset', { dataset: { name: field.name } }, h('legend', { text: field.label }),
        ...field.options.map((option, index) => h('label', {},
          h('input', { type: 'checkbox', value: option.id, id: `${id}-${index}`, checked: chosen.has(option.id) }), ` ${option.label}`)))];
    }
    const label = h('label', { for: id, text: field.label });
    if (field.render) return [label, field.render(id)]; // a widget of its own (combobox.mjs)
    if (field.type === 'select') {
      const select = h('select', { id, name: field.name },
        ...field.options.map((option) => h('option', { value: option.id, text: option.label, selected: option.id === field.value })));
      if (field.options.length === 0) select.disabled = true;
      return [label, select];
    }
    return [label, h('input', { id, name: field.name, type: 'text', value: field.value ?? '', spellcheck: 'false', autocomplete: 'off' })];
  }

  values() {
    const values = {};
    for (const element of this.fields.querySelectorAll('input[name], select[name]')) values[element.name] = element.value;
    for (const set of this.fields.querySelectorAll('fieldset[data-name]')) {
      values[set.dataset.name] = [...set.querySelectorAll('input:checked')].map((box) => box.value);
    }
    return values;
  }

  setError(text) {
    $('#form-error', this.dialog).textContent = text;
  }

  setBusy(busy) {
    const save = $('#form-save', this.dialog);
    save.disabled = busy;
    save.textContent = !busy ? this.t.save : this.isQueued(this.saving) ? this.t.queued : this.t.saving;
    for (const element of this.fields.querySelectorAll('input, select')) {
      if (element.type === 'checkbox' || element.tagName === 'SELECT') element.disabled = busy;
      else element.readOnly = busy;
    }
  }

  /**
   * Shows a button `label` that proposes `send()`'s proposal ({ id } or { error }) and waits like Save
   * (null hides it); `instead`: in place of Save (Enter uses it), and Close says Discard.
   */
  offer(label, send = null, instead = false) {
    this.offered = label ? send : null;
    this.offerButton.hidden = !label;
    this.offerButton.textContent = label ?? '';
    this.instead = instead;
    $('#form-save', this.dialog).hidden = this.readOnly || instead;
    $('#form-close', this.dialog).textContent = instead ? this.t.discard : this.t.close;
  }

  save() {
    if (this.instead) return this.offerButton.click();
    if (this.form && !this.saving) this.sent(this.onSave(this.values()));
  }

  /** Again says whether the proposal waited on is queued or being saved (it was sent after a reconnect). */
  refresh() {
    if (this.saving) this.setBusy(true);
  }

  /** The form can no longer be saved (the role ended): says `text`, waits for nothing and sends nothing. */
  ended(text) {
    this.saving = null;
    this.setBusy(false);
    this.offer(null, null, true);
    this.onSave = () => ({ error: text });
    this.setError(text);
  }

  sent(result) {
    this.offer(null);
    if (result.error !== undefined || !result.id) {
      this.setError(result.error ?? this.t.actionUnavailable);
      return;
    }
    this.saving = result.id;
    this.setError('');
    this.setBusy(true);
  }

  /** The answer to proposal `id`: true when it was this form's. Rejections show `reason`. */
  answered(id, answer, reason) {
    if (!this.dialog.open || this.saving !== id) return false;
    this.saving = null;
    if (answer.type === 'ack') {
      this.close();
    } else {
      this.setBusy(false);
      this.setError(reason);
    }
    return true;
  }

  close() {
    this.form = null;
    this.saving = null;
    this.onKey = null;
    if (this.dialog.open) this.dialog.close();
  }
}
