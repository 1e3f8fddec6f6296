/**
 * The Lua scripts behind `redis-credit-holds.ts`. Every script that moves credit first checks that Redis still holds
 * the generation the node registered under (`KEYS[1]`, the generation key, and `KEYS[2]`, the node's registration
 * marker, both equal to `ARGV[1]`). When Redis lost its state (a restart without persistence, a failover, a flush)
 * or this node's registration (reaped after its lease ran out), the script changes nothing and answers -1, and the
 * node re-registers: it re-posts every hold and pending charge it knows in memory before it takes a new one.
 *
 * An account hash carries the generation it was built in (`g`); a hash from another generation is stale and is
 * rebuilt, never trusted. Fields: `b` balance and `v` its version (from the database), `h` held by calls in flight,
 * `p` charged but not yet in the database. Keys outside KEYS are touched only by the register and reap scripts: this
 * needs a single Redis server (or a primary), not Redis Cluster.
 */
const checkRegistration = `
local generation = redis.call('GET', KEYS[1])
if (not generation) or generation ~= ARGV[1] or redis.call('GET', KEYS[2]) ~= generation then return {-1, 0} end
`;

/** True when the account hash belongs to this generation (it holds every hold and pending charge of it). */
const isLive = `
local function isLive(key, generation) return redis.call('HGET', key, 'g') == generation end
local function ensureAccount(key, generation)
  if not isLive(key, generation) then
    redis.call('DEL', key)
    redis.call('HSET', key, 'g', generation)
  end
end
`;

/**
 * KEYS: generation, registration, recovering, account, node holds. ARGV: generation, desired, minimum, hold id,
 * user id, ttl. Answers {1, held}, {2, available} when not even the minimum is there, {0} when the account must be
 * loaded from the database first, {3} while the generation is recovering (live nodes are still re-posting).
 */
export const reserveScript = `${checkRegistration}${isLive}
if redis.call('EXISTS', KEYS[3]) == 1 then return {3, 0} end
local f = redis.call('HMGET', KEYS[4], 'b', 'h', 'p', 'g')
if (not f[1]) or f[4] ~= generation then return {0, 0} end
local available = tonumber(f[1]) - tonumber(f[2] or '0') - tonumber(f[3] or '0')
if available < tonumber(ARGV[3]) then return {2, available} end
local held = math.min(tonumber(ARGV[2]), available)
redis.call('HINCRBY', KEYS[4], 'h', held)
redis.call('HSET', KEYS[5], ARGV[4], ARGV[5] .. ' ' .. held)
redis.call('EXPIRE', KEYS[4], ARGV[6])
return {1, held}
`;

/**
 * KEYS: generation, registration, account, accounts set. ARGV: generation, balance, version, ttl, mode, user id.
 * A `refresh` never creates an account; a `reserve` load rebuilds a stale one and keeps what this generation posted.
 */
export const loadScript = `${checkRegistration}${isLive}
if not isLive(KEYS[3], generation) then
  if ARGV[5] == 'refresh' then
    redis.call('SREM', KEYS[4], ARGV[6])
    return {0, 0}
  end
  ensureAccount(KEYS[3], generation)
end
local version = redis.call('HGET', KEYS[3], 'v')
if (not version) or tonumber(version) < tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[3], 'b', ARGV[2], 'v', ARGV[3])
end
redis.call('EXPIRE', KEYS[3], ARGV[4])
redis.call('SADD', KEYS[4], ARGV[6])
return {1, 0}
`;

/** KEYS: generation, registration, account, node holds, …, node deliveries (last). ARGV: generation, hold id. */
const takeHold = `${checkRegistration}${isLive}
redis.call('HDEL', KEYS[#KEYS], ARGV[2])
local hold = redis.call('HGET', KEYS[4], ARGV[2])
if not hold then return {0, 0} end
redis.call('HDEL', KEYS[4], ARGV[2])
if isLive(KEYS[3], generation) then
  redis.call('HINCRBY', KEYS[3], 'h', -tonumber(string.match(hold, ' (%-?%d+)$')))
end
`;

/**
 * KEYS: generation, registration, account, node holds, node pending, node charges, node deliveries. ARGV: generation, hold id,
 * captured, user id, ttl, the charge as journaled (so that another node can write it if this one dies).
 */
export const captureScript = `${takeHold}
local captured = tonumber(ARGV[3])
if captured > 0 then
  ensureAccount(KEYS[3], generation)
  redis.call('HINCRBY', KEYS[3], 'p', captured)
  redis.call('HINCRBY', KEYS[5], ARGV[4], captured)
  if ARGV[6] ~= '' then redis.call('HSET', KEYS[6], ARGV[2], ARGV[6]) end
  redis.call('EXPIRE', KEYS[3], ARGV[5])
end
return {1, 0}
`;

export const releaseScript = `${takeHold}
return {1, 0}
`;

/**
 * KEYS: generation, registration, account, node pending, node charges. ARGV: generation, captured, balance, version,
 * user id, then the hold ids whose charges reached the database.
 */
export const applyScript = `${checkRegistration}${isLive}
local captured = tonumber(ARGV[2])
local live = isLive(KEYS[3], generation)
if captured > 0 then
  if live then redis.call('HINCRBY', KEYS[3], 'p', -captured) end
  if redis.call('HINCRBY', KEYS[4], ARGV[5], -captured) <= 0 then redis.call('HDEL', KEYS[4], ARGV[5]) end
end
for i = 6, #ARGV do redis.call('HDEL', KEYS[5], ARGV[i]) end
local version = redis.call('HGET', KEYS[3], 'v')
if live and ARGV[4] ~= '' and version and tonumber(version) < tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[3], 'b', ARGV[3], 'v', ARGV[4])
end
return {1, 0}
`;

/**
 * KEYS: generation, recovering. ARGV: a fresh generation id, the recovery window in ms. When Redis has no generation
 * (it lost its state, or it is new), opens one and holds new reservations back for the window, during which every
 * live node notices and re-posts. Answers the current generation.
 */
export const openGenerationScript = `
local generation = redis.call('GET', KEYS[1])
if generation then return generation end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
return ARGV[1]
`;

/**
 * Takes the holds and pending charges registered in KEYS[3] and KEYS[4] off the accounts of the current generation
 * (only when the node's registration, KEYS[2], is of that generation: otherwise they were lost with it), then forgets
 * them. Account keys are ARGV[prefixArg] .. user.
 */
const subtractRegistered = (prefixArg: number) => `
local function subtractRegistered()
  local generation = redis.call('GET', KEYS[1])
  local registered = generation and redis.call('GET', KEYS[2]) == generation
  local holds = redis.call('HGETALL', KEYS[3])
  for i = 1, #holds, 2 do
    local user, held = string.match(holds[i + 1], '^(.*) (%-?%d+)$')
    if registered and isLive(ARGV[${prefixArg}] .. user, generation) then
      redis.call('HINCRBY', ARGV[${prefixArg}] .. user, 'h', -tonumber(held))
    end
  end
  local pending = redis.call('HGETALL', KEYS[4])
  for i = 1, #pending, 2 do
    if registered and isLive(ARGV[${prefixArg}] .. pending[i], generation) then
      redis.call('HINCRBY', ARGV[${prefixArg}] .. pending[i], 'p', -tonumber(pending[i + 1]))
    end
  end
  redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[8])
  return #holds / 2
end
`;

/**
 * KEYS: generation, registration, node holds, node pending, node charges, lease, nodes set, node deliveries.
 * ARGV: generation, account key prefix, lease ms, node id, then the node's memory as JSON: {holds: [[hold id, user, held]], pending:
 * [[user, amount]], charges: [[hold id, charge]]}. Replaces what this node had registered (nothing after a loss or a
 * reap; a stale copy after a command that failed on the way) by what it knows, on the accounts of this generation.
 */
export const registerScript = `${isLive}${subtractRegistered(2)}
local generation = redis.call('GET', KEYS[1])
if generation ~= ARGV[1] then return -1 end
subtractRegistered()
local known = cjson.decode(ARGV[5])
for _, hold in ipairs(known.holds) do
  ensureAccount(ARGV[2] .. hold[2], generation)
  redis.call('HINCRBY', ARGV[2] .. hold[2], 'h', hold[3])
  redis.call('HSET', KEYS[3], hold[1], hold[2] .. ' ' .. hold[3])
end
for _, pending in ipairs(known.pending) do
  ensureAccount(ARGV[2] .. pending[1], generation)
  redis.call('HINCRBY', ARGV[2] .. pending[1], 'p', pending[2])
  redis.call('HSET', KEYS[4], pending[1], pending[2])
end
for _, charge in ipairs(known.charges) do redis.call('HSET', KEYS[5], charge[1], charge[2]) end
redis.call('SET', KEYS[2], generation)
redis.call('SET', KEYS[6], '1', 'PX', ARGV[3])
redis.call('SADD', KEYS[7], ARGV[4])
return 1
`;

/**
 * KEYS: generation, registration, lease, node holds. ARGV: generation, lease ms. Answers {1, holds registered}, or
 * -1 when the node must re-register. Fewer holds than the node knows means Redis lost some without losing its
 * generation (a failover to a replica that lagged): the node re-registers then too.
 */
export const renewLeaseScript = `${checkRegistration}
redis.call('SET', KEYS[3], '1', 'PX', ARGV[2])
return {1, redis.call('HLEN', KEYS[4])}
`;

/**
 * KEYS: generation, registration, node holds, node pending, node charges, lease, nodes set, node deliveries.
 * ARGV: account key prefix,
 * node id, 'expired' to reap only a node whose lease ran out (or 'own' for this node's previous life). Takes the
 * node's holds and pending charges off the accounts of the current generation and forgets the node. Answers how many
 * holds it released, or -1 when the node renewed its lease meanwhile.
 */
export const reapScript = `${isLive}${subtractRegistered(1)}
if ARGV[3] == 'expired' and redis.call('EXISTS', KEYS[6]) == 1 then return -1 end
local released = subtractRegistered()
redis.call('SREM', KEYS[7], ARGV[2])
return released
`;

/**
 * KEYS: generation, registration, node holds, node deliveries. ARGV: generation, then pairs of hold id and the charge
 * its stream has delivered so far. A hold closed meanwhile gets no checkpoint: its own charge is already journaled.
 */
export const checkpointScript = `${checkRegistration}
for i = 2, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[3], ARGV[i]) == 1 then redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1]) end
end
return {1, 0}
`;
