import { SqliteAdapter, sql } from 'kysely';
import type { Database } from './database.ts';
import type { ChatConversationRow } from './schema.ts';

/** A conversation row with its wrapped key; the sealed body only where asked for. */
export type StoredConversation = Omit<ChatConversationRow, 'sealed_body'> & {
  wrapped_key: string;
  body_length: number;
};

const summaryColumns = [
  'chat_conversations.id',
  'chat_conversations.user_id',
  'chat_conversations.sealed_title',
  'chat_conversations.version',
  'chat_conversations.created_at',
  'chat_conversations.updated_at',
  'chat_conversation_keys.wrapped_key',
] as const;

function selectConversations(db: Database, userId: string) {
  return db
    .selectFrom('chat_conversations')
    .innerJoin('chat_conversation_keys', (join) =>
      join
        .onRef('chat_conversation_keys.user_id', '=', 'chat_conversations.user_id')
        .onRef('chat_conversation_keys.conversation_id', '=', 'chat_conversations.id'),
    )
    .where('chat_conversations.user_id', '=', userId);
}

/** The user's conversations, most recently saved first, without their bodies. */
export async function listConversations(db: Database, userId: string): Promise<StoredConversation[]> {
  return selectConversations(db, userId)
    .select(summaryColumns)
    .select((builder) => builder.fn<number>('length', ['chat_conversations.sealed_body']).as('body_length'))
    .orderBy('chat_conversations.updated_at', 'desc')
    .execute();
}

export async function findConversation(
  db: Database,
  input: { userId: string; id: string },
): Promise<(StoredConversation & { sealed_body: string }) | undefined> {
  return selectConversations(db, input.userId)
    .where('chat_conversations.id', '=', input.id)
    .select(summaryColumns)
    .select('chat_conversations.sealed_body')
    .select((builder) => builder.fn<number>('length', ['chat_conversations.sealed_body']).as('body_length'))
    .executeTakeFirst();
}

/** Inserts the conversation and its wrapped key together (version 1). Throws a unique violation when it exists. */
export async function insertConversation(
  db: Database,
  input: Omit<ChatConversationRow, 'version'> & { wrapped_key: string },
): Promise<void> {
  const { wrapped_key: wrappedKey, ...conversation } = input;
  await db.transaction().execute(async (transaction) => {
    await transaction
      .insertInto('chat_conversations')
      .values({ ...conversation, version: 1 })
      .execute();
    await transaction
      .insertInto('chat_conversation_keys')
      .values({
        user_id: input.user_id,
        conversation_id: input.id,
        wrapped_key: wrappedKey,
        created_at: input.created_at,
      })
      .execute();
  });
}

/**
 * Replaces the sealed title and body (and the wrapped key, when a new one comes) if the stored version is
 * `expectedVersion`; returns whether it did.
 */
export async function updateConversation(
  db: Database,
  input: {
    userId: string;
    id: string;
    sealedTitle: string;
    sealedBody: string;
    wrappedKey: string | undefined;
    expectedVersion: number;
    updatedAt: number;
  },
): Promise<boolean> {
  return db.transaction().execute(async (transaction) => {
    const result = await transaction
      .updateTable('chat_conversations')
      .set({
        sealed_title: input.sealedTitle,
        sealed_body: input.sealedBody,
        version: input.expectedVersion + 1,
        updated_at: input.updatedAt,
      })
      .where('user_id', '=', input.userId)
      .where('id', '=', input.id)
      .where('version', '=', input.expectedVersion)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    if (input.wrappedKey !== undefined) {
      await transaction
        .updateTable('chat_conversation_keys')
        .set({ wrapped_key: input.wrappedKey })
        .where('user_id', '=', input.userId)
        .where('conversation_id', '=', input.id)
        .execute();
    }
    return true;
  });
}

/**
 * Deletes the conversation's wrapped key and its sealed body in one transaction: either both are gone or neither
 * is (crypto-shredding must not leave a key without its conversation, or a body whose key survives elsewhere).
 */
export async function deleteConversation(db: Database, input: { userId: string; id: string }): Promise<boolean> {
  return db.transaction().execute(async (transaction) => {
    await transaction
      .deleteFrom('chat_conversation_keys')
      .where('user_id', '=', input.userId)
      .where('conversation_id', '=', input.id)
      .execute();
    const result = await transaction
      .deleteFrom('chat_conversations')
      .where('user_id', '=', input.userId)
      .where('id', '=', input.id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/**
 * Makes a deletion physical on SQLite. With `secure_delete` on, the delete zeroes the rows' bytes, but in WAL mode the
 * zeroed pages sit in the write-ahead log while the database file, and older log frames, still hold the ciphertext and
 * the wrapped key. A TRUNCATE checkpoint copies the zeroed pages over the old ones in the file and empties the log.
 * It runs after a chat deletion only (it writes and syncs the whole log). PostgreSQL has no such step: see
 * docs/encrypted-chat.md.
 *
 * Resolves whether the log was emptied (always true on PostgreSQL). It is not while another connection reads an
 * older snapshot, writes, or runs a checkpoint of its own (the writer thread's): SQLite then copies what it can and
 * reports the checkpoint busy, and the caller tries again. The connection waits at most `busyWaitMs` for the other
 * one to finish (its usual busy timeout is seconds, and this connection runs on the event loop); the usual timeout
 * is restored before the connection is released.
 */
export async function checkpointAfterDeletion(db: Database, options: { busyWaitMs: number }): Promise<boolean> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return true;
  return db.connection().execute(async (connection) => {
    const usual = await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(connection);
    const usualMs = Math.trunc(usual.rows[0]?.timeout ?? 0);
    await sql.raw(`PRAGMA busy_timeout = ${Math.trunc(options.busyWaitMs)}`).execute(connection);
    try {
      const result = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(connection);
      return result.rows[0]?.busy === 0;
    } finally {
      await sql.raw(`PRAGMA busy_timeout = ${usualMs}`).execute(connection);
    }
  });
}
