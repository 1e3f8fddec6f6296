import { Agent } from 'undici';
import { readConfig } from '../../src/config/config.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/logger.ts';
import { createPaymentHttp } from '../../src/payments/create-payment-http.ts';
import { createStripeProvider } from '../../src/payments/providers/stripe/stripe-provider.ts';
import { startGateway } from '../../src/start-gateway.ts';

/**
 * A gateway process whose sandbox Stripe client talks to a Stripe simulator that the test runs in its own process,
 * so the provider outlives a `kill -9` of the gateway and re-delivers to the restarted one, as Stripe does.
 * Arguments: the simulator's URL, its secret key and its webhook signing secret. It prints the same "gateway
 * listening on" line as `main.ts` once the client is added.
 */
const [stripeUrl = '', secretKey = '', webhookSecret = ''] = process.argv.slice(2);
const config = readConfig();
const logger = createLogger({ level: config.logLevel });
const gateway = await startGateway(config, logger);
gateway.deps.paymentProviders.add(
  createStripeProvider({
    isSandbox: true,
    http: createPaymentHttp({ dispatcher: new Agent() }),
    clock: systemClock,
    secretKey,
    webhookSecret,
    apiBaseUrl: stripeUrl,
  }),
);
logger.info(`gateway listening on ${gateway.url}`);
