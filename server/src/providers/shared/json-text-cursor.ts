const quote = 0x22;
const backslash = 0x5c;
const comma = 0x2c;
const colon = 0x3a;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const minus = 0x2d;
const plus = 0x2b;
const dot = 0x2e;
const digitZero = 0x30;
const digitNine = 0x39;
const escapedLetters: ReadonlySet<number> = new Set([quote, backslash, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/** Strings longer than this are read by `readLongString`. */
const longStringLength = 64;

/** `readEscape`'s answer for an escaped lone surrogate: 3 bytes (a replacement character once encoded), 6 long. */
const loneSurrogateEscape = (3 << 8) | 6;

/**
 * Deeper values are not read: the caller falls back to `JSON.parse`, which takes any depth, rather than this
 * recursive reader risking the stack.
 */
const maxDepth = 256;

/**
 * A reader that walks a JSON text value by value and checks its syntax exactly as `JSON.parse` would, without
 * building objects or copying strings, so an answer can be checked and measured where only a few of its fields are
 * needed. Every read returns false on text `JSON.parse` would refuse (and sets `failed`), or on what the reader
 * declines (escaped keys where a key is read, nesting past `maxDepth`): the caller then takes the careful path.
 */
export class JsonTextCursor {
  readonly text: string;
  at = 0;
  failed = false;
  /** After `nextField`: where its key's opening quote sits, and the position after its closing one (`isKey`). */
  keyStart = 0;
  keyEnd = 0;
  /** After a string was read: whether it held escapes. */
  hasEscapes = false;
  /**
   * Whether it held half a surrogate pair: valid JSON, counted as `Buffer.byteLength` counts it (a replacement
   * character), but two such strings joined may form a pair, so a sum of sizes is exact only without them.
   */
  hasLoneSurrogate = false;
  private stringOpen = 0;
  private escapeBytesSaved = 0;
  /** A long string just read, decoded (`readLongString`). */
  private decoded: string | undefined;

  constructor(text: string) {
    this.text = text;
  }

  /** False when the text has more than spaces from the cursor on. */
  isAtEnd(): boolean {
    this.skipSpace();
    return this.at === this.text.length || this.fail();
  }

  /** The next character's code after spaces (NaN at the end), not consumed. */
  peek(): number {
    this.skipSpace();
    return this.text.charCodeAt(this.at);
  }

  /**
   * Moves to the next field of the object opened at the cursor (`isFirst`) or being read: true with the key read
   * (`isKey`) and the cursor on the value, false at the closing brace (consumed) or on a syntax error (`failed`). A key written
   * with escapes fails: what a client's parser would make of it is not plain.
   */
  nextField(isFirst: boolean): boolean {
    if (!this.expectNext(isFirst, openBrace, closeBrace)) return false;
    if (this.text.charCodeAt(this.at) !== quote) return this.fail();
    this.keyStart = this.at;
    if (!this.readString() || this.hasEscapes) return this.fail();
    this.keyEnd = this.at;
    this.skipSpace();
    if (this.text.charCodeAt(this.at) !== colon) return this.fail();
    this.at++;
    this.skipSpace();
    return true;
  }

  /** `nextField` for an array: true with the cursor on the next item, false at its end or on an error. */
  nextItem(isFirst: boolean): boolean {
    if (!this.expectNext(isFirst, openBracket, closeBracket)) return false;
    return this.at < this.text.length || this.fail();
  }

  /** Reads the string at the cursor: `stringBytes()`, `hasEscapes` and `hasLoneSurrogate` then describe it. */
  readString(): boolean {
    const { text } = this;
    const open = this.at;
    if (text.charCodeAt(open) !== quote) return this.fail();
    const limit = Math.min(text.length, open + 1 + longStringLength);
    let at = open + 1;
    let escapeBytesSaved = 0;
    let hasEscapes = false;
    let hasLoneSurrogate = false;
    for (;;) {
      if (at >= limit) return at < text.length ? this.readLongString(open) : this.fail();
      const code = text.charCodeAt(at);
      if (code === quote) break;
      if (code < 0x20) return this.fail();
      if (code === backslash) {
        hasEscapes = true;
        const escaped = this.readEscape(at);
        if (escaped === 0) return false;
        if (escaped === loneSurrogateEscape) hasLoneSurrogate = true;
        // `Buffer.byteLength` of the raw text counts each of the escape's characters as a byte.
        escapeBytesSaved += (escaped & 0xff) - (escaped >> 8);
        at += escaped & 0xff;
      } else if (code < 0xd800 || code > 0xdfff) at++;
      else if (code <= 0xdbff && isLowSurrogate(text.charCodeAt(at + 1))) at += 2;
      else {
        hasLoneSurrogate = true;
        at++;
      }
    }
    this.stringOpen = open;
    this.at = at + 1;
    this.decoded = undefined;
    this.escapeBytesSaved = escapeBytesSaved;
    this.hasEscapes = hasEscapes;
    this.hasLoneSurrogate = hasLoneSurrogate;
    return true;
  }

  /**
   * The UTF-8 size of the string just read, once decoded, as `Buffer.byteLength` gives it (a lone surrogate counts
   * as a replacement character); computed only when asked.
   */
  stringBytes(): number {
    if (this.decoded !== undefined) return Buffer.byteLength(this.decoded);
    return Buffer.byteLength(this.text.slice(this.stringOpen + 1, this.at - 1)) - this.escapeBytesSaved;
  }

  /** Consumes the string at the cursor when it is written exactly `quoted` (quotes included, no escapes). */
  takeString(quoted: string): boolean {
    if (!this.text.startsWith(quoted, this.at)) return false;
    this.at += quoted.length;
    return true;
  }

  /** Whether the key `nextField` read is `name`. */
  isKey(name: string): boolean {
    return this.keyEnd - this.keyStart === name.length + 2 && this.text.startsWith(name, this.keyStart + 1);
  }

  /** Skips the value at the cursor (any JSON value), checking its syntax. */
  skipValue(depth = 0): boolean {
    const code = this.text.charCodeAt(this.at);
    if (code === quote) return this.readString();
    if (code === openBrace || code === openBracket) {
      if (depth >= maxDepth) return this.fail();
      const isObject = code === openBrace;
      for (let isFirst = true; isObject ? this.nextRawField(isFirst) : this.nextItem(isFirst); isFirst = false) {
        if (!this.skipValue(depth + 1)) return false;
      }
      return !this.failed;
    }
    if (code === minus || (code >= digitZero && code <= digitNine)) return this.readNumber();
    return this.readLiteral('true') || this.readLiteral('false') || this.readLiteral('null') || this.fail();
  }

  /** Reads the number at the cursor; `Number` of the text since `start` is then its value. */
  readNumber(): boolean {
    const { text } = this;
    let at = this.at;
    if (text.charCodeAt(at) === minus) at++;
    if (text.charCodeAt(at) === digitZero) at++;
    else if (isDigit(text.charCodeAt(at))) at = skipDigits(text, at);
    else return this.fail();
    if (text.charCodeAt(at) === dot) {
      if (!isDigit(text.charCodeAt(at + 1))) return this.fail();
      at = skipDigits(text, at + 1);
    }
    const exponent = text.charCodeAt(at) | 0x20;
    if (exponent === 0x65) {
      at++;
      const sign = text.charCodeAt(at);
      if (sign === plus || sign === minus) at++;
      if (!isDigit(text.charCodeAt(at))) return this.fail();
      at = skipDigits(text, at);
    }
    this.at = at;
    return true;
  }

  /** Consumes `literal` (`true`, `false`, `null`) when it is at the cursor. */
  readLiteral(literal: string): boolean {
    if (!this.text.startsWith(literal, this.at)) return false;
    this.at += literal.length;
    return true;
  }

  /**
   * A string longer than `longStringLength` (answer text): its closing quote found with `indexOf`, and its text
   * checked and decoded by `JSON.parse`, which scans several times faster than a loop here can.
   */
  private readLongString(open: number): boolean {
    const { text } = this;
    let close = text.indexOf('"', open + 1);
    while (close !== -1 && isEscapedAt(text, close)) close = text.indexOf('"', close + 1);
    if (close === -1) return this.fail();
    let decoded: unknown;
    try {
      decoded = JSON.parse(text.slice(open, close + 1));
    } catch {
      return this.fail();
    }
    if (typeof decoded !== 'string') return this.fail();
    this.stringOpen = open;
    this.at = close + 1;
    this.decoded = decoded;
    // Every escape is longer than what it stands for, so only a string without escapes keeps its length.
    this.hasEscapes = decoded.length !== close - open - 1;
    this.hasLoneSurrogate = !decoded.isWellFormed();
    return true;
  }

  private fail(): false {
    this.failed = true;
    return false;
  }

  /** `nextField` without the key: the generic skip reads escaped keys too, as `JSON.parse` does. */
  private nextRawField(isFirst: boolean): boolean {
    if (!this.expectNext(isFirst, openBrace, closeBrace)) return false;
    if (!this.readString()) return false;
    this.skipSpace();
    if (this.text.charCodeAt(this.at) !== colon) return this.fail();
    this.at++;
    this.skipSpace();
    return true;
  }

  /** Past the opener (first) or the comma before the next member; false at the closer (consumed) or an error. */
  private expectNext(isFirst: boolean, opener: number, closer: number): boolean {
    this.skipSpace();
    const { text } = this;
    if (isFirst) {
      if (text.charCodeAt(this.at) !== opener) return this.fail();
      this.at++;
      this.skipSpace();
      if (text.charCodeAt(this.at) === closer) {
        this.at++;
        return false;
      }
      return true;
    }
    const code = text.charCodeAt(this.at);
    this.at++;
    if (code === closer) return false;
    if (code !== comma) return this.fail();
    this.skipSpace();
    return true;
  }

  /** The escape at `at`: its decoded UTF-8 size << 8 | its length in the text; 0 (failed) when invalid. */
  private readEscape(at: number): number {
    const { text } = this;
    const letter = text.charCodeAt(at + 1);
    if (escapedLetters.has(letter)) return (1 << 8) | 2;
    const unit = letter === 0x75 ? readHex4(text, at + 2) : -1;
    if (unit < 0) return this.failEscape();
    if (unit < 0x80) return (1 << 8) | 6;
    if (unit < 0x800) return (2 << 8) | 6;
    if (unit < 0xd800 || unit > 0xdfff) return (3 << 8) | 6;
    const isPair =
      unit <= 0xdbff &&
      text.charCodeAt(at + 6) === backslash &&
      text.charCodeAt(at + 7) === 0x75 &&
      isLowSurrogate(readHex4(text, at + 8));
    return isPair ? (4 << 8) | 12 : loneSurrogateEscape;
  }

  private failEscape(): 0 {
    this.failed = true;
    return 0;
  }

  private skipSpace(): void {
    const { text } = this;
    let at = this.at;
    for (;;) {
      const code = text.charCodeAt(at);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
      at++;
    }
    this.at = at;
  }
}

/** Whether the quote at `at` is escaped: an odd number of backslashes before it. */
function isEscapedAt(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === backslash) backslashes++;
  return backslashes % 2 === 1;
}

function isDigit(code: number): boolean {
  return code >= digitZero && code <= digitNine;
}

function skipDigits(text: string, from: number): number {
  let at = from;
  while (isDigit(text.charCodeAt(at))) at++;
  return at;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The four hex digits at `at` as a number, or -1. */
function readHex4(text: string, at: number): number {
  let value = 0;
  for (let offset = 0; offset < 4; offset++) {
    const code = text.charCodeAt(at + offset);
    const letter = code | 0x20;
    if (isDigit(code)) value = value * 16 + code - digitZero;
    else if (code >= 0x41 && letter >= 0x61 && letter <= 0x66) value = value * 16 + letter - 0x57;
    else return -1;
  }
  return value;
}
