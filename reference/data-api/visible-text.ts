/**
 * "Blank" text has no visible character (issue 23 finding 8; decisions #28: a required string
 * that is empty or only white space is refused). White space is not all that shows nothing: a
 * zero-width space (U+200B), a word joiner, a byte-order mark, a control character, or a
 * combining mark with nothing to combine with (U+0301 alone) leave a member as empty as spaces
 * do. Visible: a letter, a digit, punctuation, a symbol or a private-use character. One
 * character class, no backtracking: linear on any text.
 */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}\p{Co}]/u;

export const isBlank = (text: string): boolean => !VISIBLE.test(text);
