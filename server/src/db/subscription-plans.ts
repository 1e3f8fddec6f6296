import type { Database } from './database.ts';
import type { SubscriptionPlanRow } from './schema.ts';

/** Every plan, or only the ones on sale; cheapest first. */
export async function listSubscriptionPlans(
  db: Database,
  options: { isActiveOnly: boolean },
): Promise<SubscriptionPlanRow[]> {
  let query = db.selectFrom('subscription_plans').selectAll();
  if (options.isActiveOnly) query = query.where('is_active', '=', 1);
  return query.orderBy('price_micros').orderBy('id').execute();
}

export async function findSubscriptionPlan(db: Database, id: string): Promise<SubscriptionPlanRow | undefined> {
  return db.selectFrom('subscription_plans').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertSubscriptionPlan(db: Database, plan: SubscriptionPlanRow): Promise<void> {
  await db.insertInto('subscription_plans').values(plan).execute();
}

/** Changes a plan's terms for future purchases and renewals; returns whether the plan exists. */
export async function updateSubscriptionPlan(
  db: Database,
  plan: Omit<SubscriptionPlanRow, 'created_at'>,
): Promise<boolean> {
  const result = await db
    .updateTable('subscription_plans')
    .set({
      name: plan.name,
      price_micros: plan.price_micros,
      discount_basis_points: plan.discount_basis_points,
      is_active: plan.is_active,
      updated_at: plan.updated_at,
    })
    .where('id', '=', plan.id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
