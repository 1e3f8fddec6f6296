/**
 * What calls on this node have set aside of each API key's spend cap, and what they have spent. A call's worst case
 * is taken from what the cap leaves (cap − spent − set aside by other calls) in one synchronous step, like a credit
 * hold from a balance, so calls started together cannot spend past the cap between them; a finished call turns its
 * share into what it was charged. The spending the key's cached row reports (the database's, which includes other
 * nodes' charges) is taken whenever it is higher: spending only grows, so the larger figure is the more recent.
 */
export type SpendCapHolds = {
  /** Sets aside up to `desiredMicros` (at least `minimumMicros`) of what the cap leaves; undefined when less remains. */
  take: (input: {
    keyId: string;
    capMicros: number;
    spentMicros: number;
    desiredMicros: number;
    minimumMicros: number;
  }) => number | undefined;
  /** Gives back a share set aside by `take`, once the call's charge (0 when it failed) is counted. */
  finish: (input: { keyId: string; shareMicros: number; chargedMicros: number }) => void;
};

export function createSpendCapHolds(): SpendCapHolds {
  const keys = new Map<string, { heldMicros: number; spentMicros: number }>();
  return {
    take: (input) => {
      const key = keys.get(input.keyId) ?? { heldMicros: 0, spentMicros: 0 };
      key.spentMicros = Math.max(key.spentMicros, input.spentMicros);
      keys.set(input.keyId, key);
      const availableMicros = input.capMicros - key.spentMicros - key.heldMicros;
      if (availableMicros < input.minimumMicros) return undefined;
      const micros = Math.min(input.desiredMicros, availableMicros);
      key.heldMicros += micros;
      return micros;
    },
    finish: (input) => {
      const key = keys.get(input.keyId);
      if (!key) return;
      key.heldMicros -= input.shareMicros;
      key.spentMicros += input.chargedMicros;
    },
  };
}
