import type { FastifyInstance } from 'fastify';
import {
  markTopUpPaidRequestSchema,
  operatorPaymentQuerySchema,
  refundTopUpRequestSchema,
} from '../../../../contract/payments.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import { getOperatorPayment, listOperatorPayments } from '../../payments/list-operator-payments.ts';
import { markTopUpPaid } from '../../payments/mark-top-up-paid.ts';
import { refundTopUpOrder, type RefundTopUpDeps } from '../../payments/refund-top-up-order.ts';
import type { SessionGuard } from '../middleware/session.ts';
import { requireOperator } from './operator-guard.ts';

export type OperatorPaymentRouteDeps = RefundTopUpDeps & { ids: IdGenerator; sessions: SessionGuard };

type PaymentParams = { Params: { id: string } };

/** The operator's payments: list with filters, one with its history, refund through the provider, mark paid by hand. */
export function registerOperatorPaymentRoutes(app: FastifyInstance, deps: OperatorPaymentRouteDeps): void {
  app.get('/api/operator/payments', async (request) => {
    requireOperator(deps.sessions, request);
    return listOperatorPayments(deps, parseWireRequest(operatorPaymentQuerySchema, request.query));
  });

  app.get<PaymentParams>('/api/operator/payments/:id', async (request) => {
    requireOperator(deps.sessions, request);
    return getOperatorPayment(deps, request.params.id);
  });

  app.post<PaymentParams>('/api/operator/payments/:id/refund', async (request) => {
    requireOperator(deps.sessions, request);
    const body = parseWireRequest(refundTopUpRequestSchema, request.body);
    return refundTopUpOrder(deps, { orderId: request.params.id, request: body, newKey: () => deps.ids.newId('rfd_') });
  });

  app.post<PaymentParams>('/api/operator/payments/:id/mark-paid', async (request) => {
    const operator = requireOperator(deps.sessions, request);
    const { reason } = parseWireRequest(markTopUpPaidRequestSchema, request.body);
    return markTopUpPaid(deps, { orderId: request.params.id, operatorUserId: operator.userId, reason });
  });
}
