import { isObject, type JsonObject } from '../record-types';

/** The model name Claude Code gives replies it writes itself (no model ran, nothing was billed). */
export const SYNTHETIC_MODEL = '<synthetic>';

/**
 * An assistant record the client wrote itself: a `<synthetic>` reply ("No response requested.") or an
 * API error placeholder (`isApiErrorMessage`). Neither is a billed model response.
 */
export function isClientPlaceholder(r: JsonObject): boolean {
  if (r['isApiErrorMessage'] === true) return true;
  const message = r['message'];
  return isObject(message) && message['model'] === SYNTHETIC_MODEL;
}
