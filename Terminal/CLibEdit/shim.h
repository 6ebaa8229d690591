// Helpers for calling libedit (BSD editline) from Swift.
//
// Swift cannot call C variadic functions, and el_set, el_get and history all are: each
// setting the shell uses gets a small typed function here.
#ifndef CLIBEDIT_SHIM_H
#define CLIBEDIT_SHIM_H

#include <histedit.h>
#include <locale.h>
#include <stdio.h>
#include <wchar.h>

typedef char *(*app_el_prompt_fn)(EditLine *);
typedef int (*app_el_read_fn)(EditLine *, wchar_t *);
typedef unsigned char (*app_el_command_fn)(EditLine *, int);

// libedit on the process's standard streams.
static inline EditLine *app_el_open(const char *program) {
  return el_init(program, stdin, stdout, stderr);
}

static inline void app_el_set_prompt(EditLine *el, app_el_prompt_fn prompt) {
  el_set(el, EL_PROMPT, prompt);
}

static inline void app_el_set_editor(EditLine *el, const char *mode) {
  el_set(el, EL_EDITOR, mode);
}

// Where el_gets reads each character from instead of the terminal directly.
static inline void app_el_set_read_function(EditLine *el, app_el_read_fn read) {
  el_set(el, EL_GETCFN, read);
}

static inline void app_el_set_client_data(EditLine *el, void *data) {
  el_set(el, EL_CLIENTDATA, data);
}

static inline void *app_el_client_data(EditLine *el) {
  void *data = NULL;
  el_get(el, EL_CLIENTDATA, &data);
  return data;
}

// Adds an editor command and binds `key` (as el_set's bind writes it, "^I") to it.
static inline void app_el_add_command(
  EditLine *el, const char *name, const char *help, app_el_command_fn command, const char *key
) {
  el_set(el, EL_ADDFN, name, help, command);
  el_set(el, EL_BIND, key, name, NULL);
}

// Puts the terminal in libedit's editing mode now. el_gets alone switches only when it reads
// the first key, after the prompt is on screen: a key typed in between met a cooked terminal,
// where Ctrl-D is the line discipline's end of file and reached libedit as a NUL.
static inline void app_el_prepare_terminal(EditLine *el) {
  el_set(el, EL_PREP_TERM, 1);
}

// Ctrl-C reaches the editor as a key in its editing mode, never as SIGINT: a line or a
// question is given up by the editor itself, in order with what it draws.
static inline void app_el_keys_not_signals(EditLine *el) {
  el_set(el, EL_SETTY, "-d", "-isig", NULL);
}

// Gives the terminal back in the mode it had before libedit's editing mode.
static inline void app_el_restore_terminal(EditLine *el) {
  el_set(el, EL_PREP_TERM, 0);
}

// Draws the prompt and the line again from the cursor's row, which must be empty.
static inline void app_el_redraw(EditLine *el) {
  el_set(el, EL_REFRESH);
}

static inline void app_el_use_history(EditLine *el, History *history_) {
  el_set(el, EL_HIST, history, history_);
}

static inline History *app_history_open(int size) {
  History *h = history_init();
  if (h == NULL) return NULL;
  HistEvent event;
  history(h, &event, H_SETSIZE, size);
  history(h, &event, H_SETUNIQUE, 1);
  return h;
}

static inline void app_history_enter(History *h, const char *line) {
  HistEvent event;
  history(h, &event, H_ENTER, line);
}

// The number of characters before the cursor and in the whole line.
static inline void app_el_line_counts(EditLine *el, int *beforeCursor, int *total) {
  const LineInfoW *info = el_wline(el);
  *beforeCursor = (int)(info->cursor - info->buffer);
  *total = (int)(info->lastchar - info->buffer);
}

// The line up to the cursor, as UTF-8 in `buffer`.
static inline int app_el_text_before_cursor(EditLine *el, char *buffer, size_t size) {
  const LineInfo *info = el_line(el);
  size_t length = (size_t)(info->cursor - info->buffer);
  if (length >= size) return -1;
  for (size_t i = 0; i < length; i++) buffer[i] = info->buffer[i];
  buffer[length] = '\0';
  return (int)length;
}

#endif
