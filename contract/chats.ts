import { z } from 'zod';

/**
 * The encrypted browser chat's storage API (`/api/chats`). The browser encrypts everything a user writes or reads
 * (titles, messages) before it leaves the page; the server stores only these opaque strings and cannot decrypt them.
 * Every sealed value is base64 (standard alphabet) of a 12-byte AES-GCM nonce followed by the ciphertext and tag.
 */
const sealedSchema = (maxLength: number) =>
  z
    .string()
    .min(16)
    .max(maxLength)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64');

/** Most a conversation's sealed body may be, in base64 characters (about 6 MB of text). */
export const maxConversationCiphertextLength = 8_000_000;

/** A conversation id: chosen by the browser (so it can be bound into the ciphertext before the first save). */
export const conversationIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8-64 letters, digits, _ or -');

/**
 * The account key, wrapped by a key the browser derives from the user's chat passphrase. `kdf` and `iterations`
 * say how to derive it again; `salt` is base64. `version` increases on every change (passphrase change re-wraps).
 */
export const chatVaultSchema = z.object({
  kdf: z.literal('PBKDF2-SHA-256'),
  iterations: z.number().int(),
  salt: z.string(),
  wrapped_account_key: z.string(),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ChatVault = z.infer<typeof chatVaultSchema>;

/** `GET /api/chats/vault`: the wrapped account key, or null before the user has chosen a passphrase. */
export const chatVaultAnswerSchema = z.object({ vault: chatVaultSchema.nullable() });
export type ChatVaultAnswer = z.infer<typeof chatVaultAnswerSchema>;

/**
 * `PUT /api/chats/vault`: create the vault (`expected_version` 0) or replace the wrapping after a passphrase
 * change (`expected_version` the current version; otherwise 409 `version_conflict`).
 */
export const putChatVaultRequestSchema = z.object({
  kdf: z.literal('PBKDF2-SHA-256'),
  iterations: z.number().int().min(600_000).max(10_000_000),
  salt: z
    .string()
    .min(16)
    .max(200)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'),
  wrapped_account_key: sealedSchema(1000),
  expected_version: z.number().int().min(0),
});
export type PutChatVaultRequest = z.infer<typeof putChatVaultRequestSchema>;

/** A conversation as the list shows it: its sealed title and its key wrapped by the account key; no body. */
export const conversationSummarySchema = z.object({
  id: z.string(),
  version: z.number().int(),
  wrapped_key: z.string(),
  sealed_title: z.string(),
  /** Length of the sealed body in characters: metadata the server necessarily knows. */
  body_length: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const conversationListSchema = z.object({ data: z.array(conversationSummarySchema) });
export type ConversationList = z.infer<typeof conversationListSchema>;

/** `GET /api/chats/conversations/{id}`: the summary plus the sealed body (messages, costs, citations). */
export const conversationSchema = conversationSummarySchema.extend({ sealed_body: z.string() });
export type Conversation = z.infer<typeof conversationSchema>;

/**
 * `PUT /api/chats/conversations/{id}`: create (`expected_version` 0, `wrapped_key` required) or replace the
 * sealed title and body when `expected_version` is the stored version; otherwise 409 `version_conflict`, and the
 * browser reloads, merges and tries again. The answer carries the new version.
 */
export const putConversationRequestSchema = z.object({
  wrapped_key: sealedSchema(1000).optional(),
  sealed_title: sealedSchema(10_000),
  sealed_body: sealedSchema(maxConversationCiphertextLength),
  expected_version: z.number().int().min(0),
});
export type PutConversationRequest = z.infer<typeof putConversationRequestSchema>;

/** `DELETE /api/chats/conversations/{id}`: the sealed body and the wrapped key are gone, in one transaction. */
export const deletedConversationSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type DeletedConversation = z.infer<typeof deletedConversationSchema>;

/**
 * `POST /api/chat-key`: the session's browser-chat API key, for the chat page's calls to `/v1`. The same key
 * comes back for the same session within its window; it expires at `expires_at` (at most 24 hours, never after
 * the session) and is revoked at sign-out.
 */
export const browserChatKeySchema = z.object({
  key: z.string(),
  key_id: z.string(),
  expires_at: z.string(),
});
export type BrowserChatKey = z.infer<typeof browserChatKeySchema>;
