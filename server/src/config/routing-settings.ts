export type BreakerSettings = {
  /** Consecutive failures that open a closed breaker. */
  failureThreshold: number;
  /** How long an open breaker refuses traffic before it lets one probe through. */
  coolDownMs: number;
};

export type RetryBudgetSettings = {
  /** Retries allowed as a share of requests over the window (0.2: one retry per five requests). */
  ratio: number;
  /** Retries always allowed per window, so a quiet node can still fail over. */
  floorPerWindow: number;
  windowMs: number;
};

/** How routing weighs and protects upstream routes; from the config (docs/routing.md lists the variables). */
export type RoutingSettings = {
  breaker: BreakerSettings;
  retryBudget: RetryBudgetSettings;
  /** Time a request may spend getting its first byte, over every attempt; no attempt starts after it. */
  deadlineMs: number;
  /** The longest a `Retry-After` may cool a route, whatever the upstream asks. */
  maxCoolingMs: number;
  /** Weight of the newest sample in the moving averages of error rate, time to first token and latency. */
  ewmaSmoothing: number;
  /** Among routes of equal priority, try the healthy ones cheapest first (ROUTE_PREFER_CHEAPEST; docs/routing.md). */
  preferCheapest?: boolean;
};

export const defaultRoutingSettings: RoutingSettings = {
  breaker: { failureThreshold: 5, coolDownMs: 30_000 },
  retryBudget: { ratio: 0.2, floorPerWindow: 10, windowMs: 10_000 },
  deadlineMs: 600_000,
  maxCoolingMs: 300_000,
  ewmaSmoothing: 0.2,
};
