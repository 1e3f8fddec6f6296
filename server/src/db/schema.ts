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
  created_at: number;
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
};

export type ModelsTable = {
  id: string;
  display_name: string;
  family: string;
  kind: 'text' | 'image';
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
  supports_tools: number;
  supports_vision: number;
  price_effective_at: number;
  enabled: number;
  created_at: number;
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
  endpoint: 'chat.completions' | 'responses' | 'messages' | 'images.generations';
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

export type DatabaseSchema = {
  usage_records: UsageRecordsTable;
  sessions: SessionsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  models: ModelsTable;
  price_changes: PriceChangesTable;
  routes: RoutesTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
  cache_versions: CacheVersionsTable;
};

export type UserRow = Selectable<UsersTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type ModelRow = Selectable<ModelsTable>;
export type NewModelRow = Insertable<ModelsTable>;
export type RouteRow = Selectable<RoutesTable>;
export type UsageRecordRow = Selectable<UsageRecordsTable>;
export type SessionRow = Selectable<SessionsTable>;
