/** Ends an exhaustive `switch`: the compiler rejects the call when a union member is left unhandled. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled value: ${String(value)}`);
}
