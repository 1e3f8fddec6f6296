/**
 * The limits that hold when the operator has agreed nothing else with an account (the environment's standard): a
 * ceiling for each key, a budget for all of an account's keys together, and how many keys an account may hold.
 */
export type StandardLimits = {
  keyRequestsPerMinute: number;
  /** Undefined: keys have no tokens-per-minute ceiling of their own unless the operator or the customer sets one. */
  keyTokensPerMinute: number | undefined;
  accountRequestsPerMinute: number;
  accountTokensPerMinute: number | undefined;
  accountConcurrentRequests: number;
  maxKeysPerAccount: number;
};

/** What the operator set for one account (account terms), each undefined when not set. */
export type OperatorLimits = { requestsPerMinute: number | undefined; tokensPerMinute: number | undefined };

/**
 * The budgets of one account: the ceiling of each key (a key may set a lower limit, never a higher one) and the
 * budgets all its keys share. The operator's terms replace the standard for that account, up or down: a custom limit
 * is arranged with the operator, never set by the customer.
 */
export type AccountLimits = {
  keyRequestsPerMinute: number;
  keyTokensPerMinute: number | undefined;
  accountRequestsPerMinute: number;
  accountTokensPerMinute: number | undefined;
  accountConcurrentRequests: number;
  /** How many unrevoked, unexpired keys the account may hold. */
  maxKeys: number;
};

export function findAccountLimits(standard: StandardLimits, operator: OperatorLimits): AccountLimits {
  return {
    keyRequestsPerMinute: operator.requestsPerMinute ?? standard.keyRequestsPerMinute,
    keyTokensPerMinute: operator.tokensPerMinute ?? standard.keyTokensPerMinute,
    accountRequestsPerMinute: operator.requestsPerMinute ?? standard.accountRequestsPerMinute,
    accountTokensPerMinute: operator.tokensPerMinute ?? standard.accountTokensPerMinute,
    accountConcurrentRequests: standard.accountConcurrentRequests,
    maxKeys: standard.maxKeysPerAccount,
  };
}

/** The smaller of a key's own limit and its ceiling: a key's own limit can only lower what the account allows. */
export function findKeyLimit(own: number | null, ceiling: number): number;
export function findKeyLimit(own: number | null, ceiling: number | undefined): number | undefined;
export function findKeyLimit(own: number | null, ceiling: number | undefined): number | undefined {
  if (own === null) return ceiling;
  return ceiling === undefined ? own : Math.min(own, ceiling);
}
