import type {
  Conversation,
  ConversationList,
  ConversationSummary,
  DeletedConversation,
  PutConversationRequest,
} from '../../../contract/chats.ts';
import {
  deleteConversation,
  findConversation,
  insertConversation,
  listConversations,
  updateConversation,
  type StoredConversation,
} from '../db/chat-conversations.ts';
import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { Clock } from '../lib/clock.ts';
import { eraseDeletedConversation, type ErasureLog } from './erase-deleted-conversation.ts';

export type ChatConversationDeps = { db: Database; clock: Clock };

/** The user's conversations (sealed titles and wrapped keys, no bodies), most recently saved first. */
export async function listChatConversations(deps: { db: Database }, userId: string): Promise<ConversationList> {
  return { data: (await listConversations(deps.db, userId)).map(toSummary) };
}

/** One conversation of this user with its sealed body; another user's conversation is as absent as a missing one. */
export async function getChatConversation(
  deps: { db: Database },
  input: { userId: string; id: string },
): Promise<Conversation> {
  const row = await findConversation(deps.db, input);
  if (!row) throw notFound(input.id);
  return { ...toSummary(row), sealed_body: row.sealed_body };
}

/**
 * Creates (`expected_version` 0) or replaces a conversation's sealed title and body. A save naming an older
 * version than the stored one is a 409 `version_conflict`: another tab saved meanwhile, and overwriting would lose
 * its messages.
 */
export async function saveChatConversation(
  deps: ChatConversationDeps,
  input: { userId: string; id: string; request: PutConversationRequest },
): Promise<ConversationSummary> {
  const { request, userId, id } = input;
  const nowMs = deps.clock.nowMs();
  if (request.expected_version === 0) {
    if (request.wrapped_key === undefined) {
      throw new InvalidRequestError('A new conversation needs its `wrapped_key`.', {
        param: 'wrapped_key',
        code: 'missing_required_parameter',
      });
    }
    try {
      await insertConversation(deps.db, {
        user_id: userId,
        id,
        sealed_title: request.sealed_title,
        sealed_body: request.sealed_body,
        wrapped_key: request.wrapped_key,
        created_at: nowMs,
        updated_at: nowMs,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw versionConflict();
      throw error;
    }
  } else {
    const isSaved = await updateConversation(deps.db, {
      userId,
      id,
      sealedTitle: request.sealed_title,
      sealedBody: request.sealed_body,
      wrappedKey: request.wrapped_key,
      expectedVersion: request.expected_version,
      updatedAt: nowMs,
    });
    if (!isSaved) {
      if (!(await findConversation(deps.db, { userId, id }))) throw notFound(id);
      throw versionConflict();
    }
  }
  const saved = await findConversation(deps.db, { userId, id });
  if (!saved) throw notFound(id);
  return toSummary(saved);
}

/**
 * Deletes the sealed body and the wrapped key in one transaction, then, on SQLite, overwrites their old pages in the
 * database file and empties the write-ahead log, so no copy of either stays on disk: before the answer, or, should
 * another connection keep the log busy, as soon as it lets go (`eraseDeletedConversation`).
 */
export async function deleteChatConversation(
  deps: { db: Database; log: ErasureLog },
  input: { userId: string; id: string },
): Promise<DeletedConversation> {
  if (!(await deleteConversation(deps.db, input))) throw notFound(input.id);
  await eraseDeletedConversation(deps);
  return { id: input.id, deleted: true };
}

function toSummary(row: StoredConversation): ConversationSummary {
  return {
    id: row.id,
    version: row.version,
    wrapped_key: row.wrapped_key,
    sealed_title: row.sealed_title,
    body_length: row.body_length,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`No conversation \`${id}\` on this account.`, { param: 'id' });
}

function versionConflict(): ConflictError {
  return new ConflictError('This conversation was saved elsewhere meanwhile; reload it and try again.', {
    param: 'expected_version',
    code: 'version_conflict',
  });
}
