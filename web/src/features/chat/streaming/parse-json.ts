/** JSON text as a value, or undefined when it is not JSON (a stream line that cannot be read is skipped). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
