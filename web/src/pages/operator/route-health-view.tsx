import type { OperatorRoute } from '../../../../contract/operator-routes.ts';
import { useOperatorMessages } from './operator-messages.ts';

/** A route's live health on the node that answered: state, error rate, timings, calls in flight, attempts. */
export function RouteHealthView(props: { route: OperatorRoute }) {
  const text = useOperatorMessages();
  const { health } = props.route;
  const until = health.cooling_until ?? health.probe_at;
  return (
    <div className="operator-list__meta">
      {text.routes.health}:{' '}
      <span className={`operator-health operator-health--${health.state}`} data-field="health">
        {text.routes.states[health.state]}
      </span>
      {until && ` ${text.routes.until(new Date(until).toLocaleTimeString())}`} ·{' '}
      <span data-field="error-rate">{Math.round(health.error_rate * 100)}%</span> {text.routes.errorRate}
      {health.time_to_first_token_ms !== null && ` · ${text.routes.firstToken} ${health.time_to_first_token_ms} ms`}
      {health.latency_ms !== null && ` · ${text.routes.latency} ${health.latency_ms} ms`} · {text.routes.inFlight}{' '}
      {health.in_flight} · {text.routes.attempts} <span data-field="attempts">{health.attempts}</span> (
      {text.routes.failures} <span data-field="failures">{health.failures}</span>)
    </div>
  );
}
