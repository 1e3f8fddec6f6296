import type { Generated, Insertable, Selectable } from 'kysely';

/** Timestamps are integer Unix milliseconds; booleans are 0/1 integers; money is integer micro-USD. */
export type UsersTable = {
  id: string;
  email: string;
  password_hash: string;
  role: 'user' | 'admin';
  status: 'active' | 'blocked';
  /** Cached sum of this user's ledger entries, updated in the same transaction as every entry. */
  balance_micros: number;
  /** Raised by every ledger change to the balance (migration 0011). */
  balance_version: Generated<number>;
  created_at: number;
  /** When the address was verified by its link, or null (migration 0050). */
  email_verified_at: Generated<number | null>;
  /** The language of the account's mail: `en` or `ru` (migration 0050). */
  locale: Generated<string>;
  /** SHA-256 of the client address and of its /24 or /64 network at sign-up (migration 0050). */
  signup_address_hash: Generated<string | null>;
  signup_network_hash: Generated<string | null>;
  /** The balance below which the user wants a mail, or null for none; when that mail last went out (migration 0051). */
  alert_low_balance_micros: Generated<number | null>;
  low_balance_alerted_at: Generated<number | null>;
  /** When the account was deleted (its address and password gone), or null (migration 0052). */
  deleted_at: Generated<number | null>;
};

export type ApiKeysTable = {
  id: string;
  user_id: string;
  name: string;
  key_hash: string;
  prefix: string;
  last_four: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  expires_at: number | null;
  spend_cap_micros: number | null;
  spent_micros: Generated<number>;
  /** Newline-separated model ids, or null for every model. */
  allowed_models: string | null;
  requests_per_minute: number | null;
  /** The key's own tokens-per-minute limit, or null for the account's (migration 0008). */
  tokens_per_minute: number | null;
  /** The key's spend budgets per UTC day and month, or null for none (migration 0120). */
  daily_budget_micros: number | null;
  monthly_budget_micros: number | null;
};

export type ModelsTable = {
  id: string;
  display_name: string;
  family: string;
  kind: 'text' | 'image' | 'embedding';
  context_length: number;
  max_output_tokens: number;
  /** Our rates: micro-USD per 1M tokens. */
  input_rate_micros: number;
  output_rate_micros: number;
  cached_input_rate_micros: number | null;
  /** Our price per image request, micro-USD (image models). */
  per_request_micros: number | null;
  list_input_rate_micros: number;
  list_output_rate_micros: number;
  list_cached_input_rate_micros: number | null;
  list_per_request_micros: number | null;
  /** A prompt-cache write's price as a share of the input rate, 12,500 = 1.25×; null: the input rate (0008). */
  cache_write_rate_basis_points: Generated<number | null>;
  supports_tools: number;
  supports_vision: number;
  price_effective_at: number;
  enabled: number;
  created_at: number;
  /** The vendor whose own API serves the model, and the model's id there (migration 0040; null: not filled yet). */
  provider: string | null;
  upstream_model: string | null;
  supports_json_schema: Generated<number>;
  supports_reasoning: Generated<number>;
  supports_web_search: Generated<number>;
  /** Retired models leave the price list but keep their row for usage history; the successor is named to callers. */
  retired_at: number | null;
  successor_id: string | null;
};

export type PriceChangesTable = {
  model_id: string;
  effective_at: number;
  input_rate_micros: number;
  output_rate_micros: number;
  cached_input_rate_micros: number | null;
  per_request_micros: number | null;
  reason: string;
};

/** A vendor list price change applied by a model sync (migration 0110). */
export type ListPriceChangesTable = {
  model_id: string;
  recorded_at: number;
  effective_at: number;
  list_input_rate_micros: number;
  list_output_rate_micros: number;
  list_cached_input_rate_micros: number | null;
  source: string;
};

export type RoutesTable = {
  id: string;
  model_id: string;
  provider: string;
  base_url: string;
  /** AES-256-GCM ciphertext of the vendor credential under the master key, or null (no credential). */
  credential_ciphertext: string | null;
  upstream_model: string;
  priority: number;
  weight: number;
  enabled: number;
  is_sandbox: number;
  created_at: number;
  /** What the upstream charges us: micro-USD per 1M input / output tokens (operator information, null: unknown). */
  input_cost_micros: number | null;
  output_cost_micros: number | null;
  /** Cached input per 1M tokens and one image, micro-USD (migration 0041; null: unknown). */
  cached_input_cost_micros: number | null;
  per_request_cost_micros: number | null;
  /** Most calls in flight on this route per node; null: no cap. */
  max_concurrency: number | null;
  /** Per-route upstream timeouts; null: the defaults of `providers/shared/upstream-timeouts.ts`. */
  connect_timeout_ms: number | null;
  first_byte_timeout_ms: number | null;
  idle_timeout_ms: number | null;
  /** Newline-separated user ids the route is reserved for (a dedicated channel), or null for every account. */
  reserved_for_user_ids: string | null;
  /**
   * The vendor's own settings as a JSON object checked by its schema (`routeOptions` in the vendor's definition):
   * Azure OpenAI's `api_version`, Vertex AI's `vertex_project` and `vertex_location`. Null: none.
   */
  vendor_options: string | null;
  updated_at: number | null;
};

export type LedgerTransactionsTable = {
  id: string;
  idempotency_key: string;
  kind: 'welcome' | 'adjustment' | 'top_up' | 'usage' | 'subscription' | 'refund';
  reason: string;
  created_at: number;
};

/** One entry per account per transaction; the entries of a transaction sum to zero. */
export type LedgerEntriesTable = {
  transaction_id: string;
  /** `user:<id>` for a customer balance, `system:<name>` for the operator's side of the books. */
  account: string;
  amount_micros: number;
};

/** Monotonic counters bumped on every change a node caches (keys, catalogue, routes); nodes poll them. */
export type CacheVersionsTable = {
  name: string;
  version: number;
};

export type UsageRecordsTable = {
  request_id: string;
  user_id: string;
  api_key_id: string | null;
  model_id: string;
  endpoint: 'chat.completions' | 'responses' | 'messages' | 'images.generations' | 'embeddings' | 'completions';
  route_id: string | null;
  provider: string | null;
  /** `completed`, `interrupted` (client left or the stream broke: billed for what was delivered) or `failed`. */
  status: 'completed' | 'interrupted' | 'failed';
  error_code: string | null;
  input_tokens: number;
  cached_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  image_count: number;
  cost_micros: number;
  /** What the serving route charged us for the call, micro-USD (migration 0041; null: no route, or before 0041). */
  upstream_cost_micros: number | null;
  time_to_first_token_ms: number | null;
  latency_ms: number;
  created_at: number;
};

/** A signed-in browser session; the cookie holds the token, the database only its SHA-256. */
export type SessionsTable = {
  id: string;
  user_id: string;
  token_hash: string;
  /** Sent back by the browser in `x-csrf-token` on every state-changing request. */
  csrf_token: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
};

/** A user's chat account key, wrapped under the key derived from the chat passphrase (PBKDF2 parameters here). */
export type ChatVaultsTable = {
  user_id: string;
  kdf: 'PBKDF2-SHA-256';
  iterations: number;
  /** Base64. */
  salt: string;
  /** Base64 AES-GCM nonce + ciphertext of the raw account key; the server cannot unwrap it. */
  wrapped_account_key: string;
  version: number;
  created_at: number;
  updated_at: number;
};

/** A browser-chat conversation: only sealed (browser-encrypted) title and body. */
export type ChatConversationsTable = {
  user_id: string;
  id: string;
  sealed_title: string;
  sealed_body: string;
  /** Optimistic concurrency: a save names the version it replaces. */
  version: number;
  created_at: number;
  updated_at: number;
};

/** A conversation's key wrapped under the account key; deleted with the conversation in one transaction. */
export type ChatConversationKeysTable = {
  user_id: string;
  conversation_id: string;
  wrapped_key: string;
  created_at: number;
};

/** The browser chat's API keys, each tied to the session it was issued to (revoked when that session ends). */
export type BrowserChatKeysTable = {
  api_key_id: string;
  session_id: string;
  /** 1, 2, … per session: a new key replaces one that expires or is revoked (see chats/issue-browser-chat-key.ts). */
  sequence: number;
  created_at: number;
};

/** What the operator agreed with one account: a contract discount and a custom request budget. */
export type AccountTermsTable = {
  user_id: string;
  /** 100 = 1%; applies to every model without an account price of its own. */
  contract_discount_basis_points: number;
  /** Requests per minute for the whole account, or null for the standard per-key limits. */
  requests_per_minute: number | null;
  /** Tokens per minute for the whole account, or null for no account token budget (migration 0008). */
  tokens_per_minute: number | null;
  updated_at: number;
};

/** An account's own price for one model, in place of the live price list (micro-USD per 1M tokens or per request). */
export type AccountModelPricesTable = {
  user_id: string;
  model_id: string;
  input_rate_micros: number;
  output_rate_micros: number;
  cached_input_rate_micros: number | null;
  per_request_micros: number | null;
  updated_at: number;
};

/** A 30-day plan the operator sells: a discount on every price, paid from the balance. */
export type SubscriptionPlansTable = {
  id: string;
  name: string;
  price_micros: number;
  discount_basis_points: number;
  is_active: number;
  created_at: number;
  updated_at: number;
};

/** An account's subscription: the paid period and the discount it bought (kept when the plan changes later). */
export type SubscriptionsTable = {
  user_id: string;
  plan_id: string;
  discount_basis_points: number;
  period_started_at: number;
  expires_at: number;
  is_auto_renewing: number;
  /** Why the last automatic renewal did not happen (auto-renewal is then switched off), or null. */
  renewal_failure: string | null;
  updated_at: number;
};

/** A per-image list price of an image model for one quality and size; `*` matches any. */
export type ImagePriceTiersTable = {
  model_id: string;
  quality: string;
  size: string;
  list_per_request_micros: number;
};

/** An environment or sandbox route switched off by the operator (migration 0015). */
/** A seed-catalogue tier written once (migration 0009): never written again, so an operator's removal sticks. */
export type ImagePriceTierSeedsTable = { model_id: string; quality: string; size: string };

export type DisabledImplicitRoutesTable = {
  route_id: string;
  disabled_at: number;
};

/** One fact about the installation (migration 0010): `master_key_fingerprint` so far. */
export type InstanceSettingsTable = { name: string; value: string; created_at: number };

/** A single-use link's token (migration 0050): only its SHA-256 is kept. */
export type AccountTokensTable = {
  id: string;
  user_id: string;
  purpose: 'verify_email' | 'reset_password';
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
};

/** A subscription period (by its end) whose renewal reminder was mailed (migration 0051). */
export type SubscriptionRenewalRemindersTable = { user_id: string; expires_at: number; sent_at: number };

/** Mail kept instead of sent while no SMTP server is configured (migration 0050). */
export type MailOutboxTable = {
  id: string;
  to_address: string;
  kind: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: number;
};

/** The states of a top-up order; `payments/order-state-machine.ts` says which moves are allowed. */
export type TopUpOrderStatus =
  | 'created'
  | 'pending'
  | 'succeeded'
  | 'canceled'
  | 'expired'
  | 'partially_refunded'
  | 'refunded'
  | 'charged_back'
  /** A USDT order that received less than it asked for: what came is credited, more may still come. */
  | 'partially_paid';

/**
 * A fiat top-up order (migration 0020); amounts are integers. Provider, method and currency hold the ids of
 * `payments/payment-provider.ts` (db/ imports no domain folder, so they are plain strings here, like routes.provider).
 */
export type TopUpOrdersTable = {
  id: string;
  user_id: string;
  provider: string;
  method: string;
  pay_minor_units: number;
  pay_currency: string;
  credit_micros: number;
  /** Micro-units of the pay currency per 1 USD (1,000,000 for USD itself). */
  rate_micros_per_usd: number;
  rate_source: string;
  markup_basis_points: number;
  quote_expires_at: number;
  provider_payment_id: string | null;
  confirmation_url: string | null;
  status: TopUpOrderStatus;
  is_sandbox: number;
  is_paid_after_expiry: Generated<number>;
  /** Why the operator should look at this order (an amount that did not match, …); null when nothing is odd. */
  review_reason: string | null;
  credited_micros: Generated<number>;
  refunded_minor_units: Generated<number>;
  refunded_micros: Generated<number>;
  charged_back_minor_units: Generated<number>;
  charged_back_micros: Generated<number>;
  created_at: number;
  updated_at: number;
};

export type TopUpOrderTransitionsTable = {
  id: string;
  order_id: string;
  /** 0, 1, 2, … per order: transitions are written under the order's lock, so the count orders them. */
  sequence: number;
  from_status: TopUpOrderStatus | null;
  to_status: TopUpOrderStatus;
  cause: string;
  at: number;
};

/** A provider notification fact already handled, by its event key (never its payload). */
export type PaymentProviderEventsTable = {
  provider: string;
  event_key: string;
  order_id: string | null;
  kind: string;
  received_at: number;
};

/** A daily exchange rate: micro-units of `currency` per 1 USD. */
export type FxRatesTable = {
  currency: string;
  rate_date: string;
  micros_per_usd: number;
  source: string;
  fetched_at: number;
};

/** The deposit address of a USDT order and what reached it (migration 0030); amounts in micro-USDT (6 decimals). */
export type CryptoDepositsTable = {
  order_id: string;
  /** `tron` (watched by the gateway) or `nowpayments` (the processor's address). */
  way: string;
  pay_address: string;
  /** The child index under the operator's xpub (m/…/0/index); null for a processor's address. */
  derivation_index: number | null;
  expected_micro_usdt: number;
  /** The operator's rate locked on the order: micro-USDT per 1 USD (1,000,000 at 1:1). */
  micro_usdt_per_usd: number;
  received_micro_usdt: Generated<number>;
  /** A transfer seen on chain but not yet confirmed (the order page shows "seen"). */
  seen_tx_id: string | null;
  seen_at: number | null;
  created_at: number;
};

/** One credited transfer of a USDT order, by its key (tx id and log index, or the processor's payment id). */
export type CryptoDepositTransfersTable = {
  way: string;
  transfer_key: string;
  order_id: string;
  tx_id: string;
  amount_micro_usdt: number;
  credited_micros: number;
  is_late: number;
  credited_at: number;
};

/** One audit record (migration 0060): never updated or deleted. Before and after are JSON texts, never prompt text. */
export type AuditEventsTable = {
  id: string;
  occurred_at: number;
  /** `operator`: an operator's change; `security`: an event of an account's own security, shown to its owner. */
  category: 'operator' | 'security';
  action: string;
  actor_user_id: string | null;
  /** The actor's e-mail at the time, or `cli` for the command line. */
  actor_label: string;
  target_kind: string;
  target_id: string | null;
  /** The account the record concerns, if any: its owner sees its security events. */
  account_id: string | null;
  before_json: string | null;
  after_json: string | null;
  client_address: string | null;
};

/** A user's TOTP secret (migration 0061), sealed with the master key; unconfirmed until its first code matched. */
export type TotpCredentialsTable = {
  user_id: string;
  secret_ciphertext: string;
  created_at: number;
  confirmed_at: number | null;
  /** The RFC 6238 time step of the last accepted code: a code is accepted once. */
  last_time_step: number | null;
};

export type TotpRecoveryCodesTable = { user_id: string; code_hash: string; used_at: number | null };

/** Sessions that passed the second factor. */
export type SessionSecondFactorsTable = { session_id: string; user_id: string; verified_at: number };

export type DatabaseSchema = {
  crypto_deposits: CryptoDepositsTable;
  crypto_deposit_transfers: CryptoDepositTransfersTable;
  top_up_orders: TopUpOrdersTable;
  top_up_order_transitions: TopUpOrderTransitionsTable;
  payment_provider_events: PaymentProviderEventsTable;
  fx_rates: FxRatesTable;
  account_terms: AccountTermsTable;
  account_model_prices: AccountModelPricesTable;
  subscription_plans: SubscriptionPlansTable;
  subscriptions: SubscriptionsTable;
  chat_vaults: ChatVaultsTable;
  chat_conversations: ChatConversationsTable;
  chat_conversation_keys: ChatConversationKeysTable;
  browser_chat_keys: BrowserChatKeysTable;
  usage_records: UsageRecordsTable;
  sessions: SessionsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  models: ModelsTable;
  price_changes: PriceChangesTable;
  list_price_changes: ListPriceChangesTable;
  routes: RoutesTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
  cache_versions: CacheVersionsTable;
  image_price_tiers: ImagePriceTiersTable;
  image_price_tier_seeds: ImagePriceTierSeedsTable;
  disabled_implicit_routes: DisabledImplicitRoutesTable;
  instance_settings: InstanceSettingsTable;
  account_tokens: AccountTokensTable;
  mail_outbox: MailOutboxTable;
  subscription_renewal_reminders: SubscriptionRenewalRemindersTable;
  audit_events: AuditEventsTable;
  totp_credentials: TotpCredentialsTable;
  totp_recovery_codes: TotpRecoveryCodesTable;
  session_second_factors: SessionSecondFactorsTable;
};

export type UserRow = Selectable<UsersTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type ModelRow = Selectable<ModelsTable>;
export type NewModelRow = Insertable<ModelsTable>;
export type RouteRow = Selectable<RoutesTable>;
export type NewRouteRow = Insertable<RoutesTable>;
export type UsageRecordRow = Selectable<UsageRecordsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ChatVaultRow = Selectable<ChatVaultsTable>;
export type ChatConversationRow = Selectable<ChatConversationsTable>;
export type AccountTermsRow = Selectable<AccountTermsTable>;
export type AccountModelPriceRow = Selectable<AccountModelPricesTable>;
export type SubscriptionPlanRow = Selectable<SubscriptionPlansTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type TopUpOrderRow = Selectable<TopUpOrdersTable>;
export type NewTopUpOrderRow = Insertable<TopUpOrdersTable>;
export type CryptoDepositRow = Selectable<CryptoDepositsTable>;
export type CryptoDepositTransferRow = Selectable<CryptoDepositTransfersTable>;
export type AuditEventRow = Selectable<AuditEventsTable>;
export type TotpCredentialRow = Selectable<TotpCredentialsTable>;
