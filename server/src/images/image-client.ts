import type { Dispatcher } from 'undici';
import type { UpstreamTarget } from '../providers/provider-adapter.ts';
import type { ProviderId } from '../providers/provider-id.ts';
import type { UpstreamTimeouts } from '../providers/shared/upstream-timeouts.ts';
import type { ImageJob } from './image-job.ts';
import type { ImageDatum, ImageTokenUsage } from './image-request.ts';

/** What one vendor call produced. Fewer images than asked for means the vendor filtered some (never billed). */
export type GeneratedImages = {
  images: ImageDatum[];
  /** GPT image models' token usage, passed through for information. */
  usage?: ImageTokenUsage;
  /** What an OpenAI answer says it drew (`size`, `quality`, `output_format`, `background`). */
  details?: { size?: string; quality?: string; output_format?: string; background?: string };
};

/** One call to draw a job's images on one route. */
export type ImageCallInput = {
  provider: ProviderId;
  target: UpstreamTarget;
  job: ImageJob;
  dispatcher: Dispatcher;
  /** Aborted when the client leaves or the call's deadline passes. */
  signal: AbortSignal;
  timeouts: UpstreamTimeouts;
};

/**
 * A vendor's image client: the vendor's HTTP calls, through the same undici pool as chat. Failures are thrown as
 * UpstreamFailureError (classified like chat failures), so the caller can fail over.
 */
export type ImageClient = (input: ImageCallInput) => Promise<GeneratedImages>;
