import type { Kysely } from 'kysely';

/**
 * The encrypted browser chat: per user the account key wrapped under the passphrase-derived key; per conversation
 * its sealed title and body, and (in a table of its own, deleted in the same transaction) its key wrapped under the
 * account key. No column holds text the server can read. Browser-chat API keys are tied to the session that asked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chat_vaults')
    .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id'))
    .addColumn('kdf', 'text', (column) => column.notNull())
    .addColumn('iterations', 'integer', (column) => column.notNull())
    .addColumn('salt', 'text', (column) => column.notNull())
    .addColumn('wrapped_account_key', 'text', (column) => column.notNull())
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('chat_conversations')
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id'))
    .addColumn('id', 'text', (column) => column.notNull())
    .addColumn('sealed_title', 'text', (column) => column.notNull())
    .addColumn('sealed_body', 'text', (column) => column.notNull())
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('chat_conversations_pk', ['user_id', 'id'])
    .execute();
  await db.schema
    .createTable('chat_conversation_keys')
    .addColumn('user_id', 'text', (column) => column.notNull())
    .addColumn('conversation_id', 'text', (column) => column.notNull())
    .addColumn('wrapped_key', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('chat_conversation_keys_pk', ['user_id', 'conversation_id'])
    .addForeignKeyConstraint(
      'chat_conversation_keys_conversation_fk',
      ['user_id', 'conversation_id'],
      'chat_conversations',
      ['user_id', 'id'],
    )
    .execute();
  await db.schema
    .createTable('browser_chat_keys')
    .addColumn('api_key_id', 'text', (column) => column.primaryKey().references('api_keys.id'))
    .addColumn('session_id', 'text', (column) => column.notNull().references('sessions.id'))
    .addColumn('sequence', 'bigint', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addUniqueConstraint('browser_chat_keys_session_sequence', ['session_id', 'sequence'])
    .execute();
}
