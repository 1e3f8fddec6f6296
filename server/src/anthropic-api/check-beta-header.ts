import { InvalidRequestError } from '../errors/invalid-request-error.ts';

/**
 * Anthropic betas that change the wire format in ways no vendor behind the gateway can serve (references to
 * Anthropic-hosted files, tools run in Anthropic's sandboxes or against MCP servers): named in `anthropic-beta`, they
 * get a 400 naming them rather than an answer that silently lacks the feature. Keyed by the beta's name without its
 * date, so later versions are refused too.
 * @see https://docs.anthropic.com/en/api/beta-headers
 */
const unservedBetas: Readonly<Record<string, string>> = {
  'files-api': 'files uploaded to Anthropic cannot be read by other vendors; send the content inline',
  'code-execution': 'code runs in Anthropic-hosted containers only',
  'mcp-client': 'MCP servers are called by Anthropic itself; call MCP tools as custom tools',
  'computer-use': 'computer-use tools are Anthropic-defined and not carried to other vendors',
  skills: 'skills run in Anthropic-hosted containers only',
  'web-fetch': 'the web fetch server tool is not offered; web_search is',
};

/** A beta name: lower-case words and a date, like `interleaved-thinking-2025-05-14`. */
const betaNamePattern = /^[a-z0-9][a-z0-9._-]*$/;
const datePattern = /-\d{4}-\d{2}-\d{2}$/;

/**
 * The `anthropic-beta` header (one or more comma-separated names, possibly repeated). A beta the gateway does not
 * know is ignored, as is one that changes nothing it must honour (prompt caching, interleaved thinking, Claude
 * Code's own); one in `unservedBetas` or a malformed name is a 400 naming the header and the beta.
 */
export function checkBetaHeader(header: string | readonly string[] | undefined): void {
  const values = header === undefined ? [] : typeof header === 'string' ? [header] : header;
  const names = values
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  for (const name of names) {
    if (!betaNamePattern.test(name)) {
      throw new InvalidRequestError(`anthropic-beta: '${name.slice(0, 80)}' is not a beta name.`, {
        param: 'anthropic-beta',
      });
    }
    const reason = unservedBetas[name.replace(datePattern, '')];
    if (reason !== undefined) {
      throw new InvalidRequestError(
        `anthropic-beta: '${name}' changes the request format in a way this gateway cannot serve (${reason}). Remove it from the anthropic-beta header.`,
        { param: 'anthropic-beta', code: 'unsupported_parameter' },
      );
    }
  }
}
